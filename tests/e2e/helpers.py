"""Page-level helpers shared by the browser tests (plain functions over a Playwright page)."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

TURN_OR_END = "body[data-turn='me'], body[data-status='finished']"
# The two screens every game is checked on (issue 18.1): a phone and a small laptop.
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}

# Issue 18.1 at both sizes: each game's laptop playthrough plays in English, the parametrized
# one a phone in Spanish (the longer words). The other pairs of size and language are read on
# pages mid-game, which cost no whole game: test_targets.py, test_page_width.py,
# test_phone_pages.py.
SIZES_AND_LANGUAGES = [pytest.param(PHONE, "es-ES", id="phone-es")]
GAME_OVER = {"es-ES": "Fin de la partida", "en-GB": "Game over"}


def my_move(page: Any, bet: int = 1, look: Any = None) -> str:
    """Make one move by clicks on the current page: a bet, or the first highlighted card.

    ``look(page, board=...)``, when given, runs before every click (see ``assert_in_view``)."""

    def before(first: bool = True) -> None:
        if look is not None:
            look(page, board=first)

    if page.locator(".bet-panel").count():
        before()
        page.click(f".bet-option[data-tricks='{bet}']")
        before(False)
        page.click(".bet-confirm")
        return "bet"
    if page.locator(".high-end-panel").count():
        before()
        page.click(".high-end-panel button[data-side='right']")
        return "high_end"
    before()
    page.locator(".hand-mine button.card.legal").first.click()
    return "card"


def play_to_the_end(page: Any, limit: int = 200, look: Any = None) -> dict[str, int]:
    """Answer every turn of this page's player by clicks until the game is over."""
    moves = {"bet": 0, "card": 0, "high_end": 0}
    for _ in range(limit):
        page.wait_for_selector(TURN_OR_END, timeout=15_000)
        if page.get_attribute("body", "data-status") == "finished":
            return moves
        moves[my_move(page, look=look)] += 1
    raise AssertionError(f"the game did not end within {limit} moves: {moves}")


# Act where you look (issue 18.1): what is on the screen at a decision, read before any click
# and without scrolling. A legal target counts when its whole box is in the viewport and a tap on
# its centre reaches it (nothing, such as the docked prompt, lies over it).
IN_VIEW = """
() => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return { top: Math.round(r.top), bottom: Math.round(r.bottom), left: Math.round(r.left), right: Math.round(r.right) };
  };
  const inside = (b) => b.bottom > b.top && b.top >= 0 && b.left >= 0 && b.bottom <= vh && b.right <= vw;
  const reached = (el) => {
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return Boolean(top) && (top === el || el.contains(top));
  };
  const prompt = document.querySelector('#board [data-decision]');
  const targets = Array.from(document.querySelectorAll('#board .legal'))
    .filter((el) => !el.disabled && el.getClientRects().length > 0);
  const seen = targets.filter((el) => inside(box(el)) && reached(el));
  const onBoard = (el) => !prompt || !prompt.contains(el);
  const describe = (el) => `${el.tagName.toLowerCase()}.${String(el.className).split(' ').join('.')} ${JSON.stringify(box(el))}`;
  return {
    viewport: [vw, vh],
    scroll_y: Math.round(window.scrollY),
    prompt: prompt ? box(prompt) : null,
    prompt_in_view: Boolean(prompt) && inside(box(prompt)),
    targets: targets.length,
    seen: seen.length,
    board_targets: targets.filter(onBoard).length,
    board_seen: seen.filter(onBoard).length,
    nearest: targets.slice(0, 3).map(describe),
  };
}
"""


# Nothing wider than the screen (issue 35.3): the page never scrolls sideways, and no element
# reaches past the viewport's right edge unless it sits in a box that visibly scrolls sideways
# by itself (.table-scroll or [data-hscroll]: hscroll.js fades the hidden side and says to
# swipe) and that box fits. Clipped content (a screen-reader-only label, an ellipsis) draws
# nothing beyond the edge and does not count; a box that scrolls sideways without saying so
# (a docked prompt wider than the phone) does.
SIDEWAYS = """
() => {
  const vw = window.innerWidth;
  const doc = document.documentElement;
  const clips = (el) => {
    const s = getComputedStyle(el);
    return s.overflowX !== 'visible' || s.clipPath !== 'none' || s.clip !== 'auto';
  };
  const visiblyScrolls = (el) => el.matches('.table-scroll, [data-hscroll]');
  const scrolls = (el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
  const describe = (el, holder) => {
    const r = el.getBoundingClientRect();
    const name = (n) => n.tagName.toLowerCase() + (n.id ? '#' + n.id : '') +
      (typeof n.className === 'string' && n.className.trim() ? '.' + n.className.trim().split(/\\s+/).join('.') : '');
    const text = JSON.stringify((el.textContent || '').trim().slice(0, 30));
    return `${name(el)} [${Math.round(r.left)}..${Math.round(r.right)}] ${text}` + (holder ? ` in ${name(holder)}` : '');
  };
  const wide = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('dialog:not([open]), [hidden], template')) continue;
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0 || r.right <= vw + 1) continue;
    if (getComputedStyle(el).visibility === 'hidden') continue;
    // The first ancestor that clips it decides: a sideways scroller that says so and fits,
    // or a box that only clips (overflow hidden or clip) and fits.
    let holder = null;
    for (let a = el.parentElement; a && a !== document.body && a !== doc; a = a.parentElement) {
      if (clips(a)) { holder = a; break; }
    }
    if (holder && holder.getBoundingClientRect().right <= vw + 1 && (visiblyScrolls(holder) || !scrolls(holder))) continue;
    wide.push(describe(el, holder));
  }
  return { viewport: vw, scroll_width: doc.scrollWidth, wide: wide.slice(0, 6), count: wide.length };
}
"""


def assert_no_sideways_scroll(page: Any, where: str = "") -> dict[str, Any]:
    """The page is no wider than the viewport (documentElement.scrollWidth <= innerWidth)
    and nothing sticks out past its right edge except inside a sideways-scrolling container
    (issue 35.3). ``where`` names the page or state in the failure message."""
    seen = page.evaluate(SIDEWAYS)
    context = f"{where} {page.url} {seen}"
    assert seen["scroll_width"] <= seen["viewport"], f"the page scrolls sideways — {context}"
    assert not seen["count"], f"something reaches past the right edge — {context}"
    return dict(seen)


# Targets a thumb can hit (issue 35.4, WCAG 2.2 2.5.8): every control that sends or arms an
# action (every legal target on the board, every button of the decision prompt) is at least
# 24×24 CSS px; in the docked prompt on a phone its buttons are at least 44 px tall.
TARGET_MIN = 24
DOCK_MIN_HEIGHT = 44
PHONE_MAX_WIDTH = 560  # the width below which the shell treats the screen as a phone

TARGETS = """
([MIN, PHONE, DOCK]) => {
  // A box that is clicked for it: a checkbox's label is part of its target.
  const size = (el) => {
    const r = (el.labels && el.labels.length ? el.labels[0] : el).getBoundingClientRect();
    return { w: Math.round(r.width * 10) / 10, h: Math.round(r.height * 10) / 10 };
  };
  const describe = (el) => {
    const s = size(el);
    const name = el.tagName.toLowerCase() + '.' + String(el.className).trim().split(/\\s+/).join('.');
    return `${name} ${s.w}x${s.h} ${JSON.stringify((el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 30))}`;
  };
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const prompt = document.querySelector('#board [data-decision]');
  const docked = Boolean(prompt) && document.body.dataset.dock === 'on' && getComputedStyle(prompt).position === 'fixed';
  const controls = new Set(Array.from(document.querySelectorAll('#board .legal')).filter((el) => !el.disabled));
  if (prompt) for (const el of prompt.querySelectorAll('button, [role=button], input:not([type=hidden]), select')) {
    if (!el.disabled) controls.add(el);
  }
  const list = Array.from(controls).filter(shown).map((el) => ({ el, ...size(el), dock: docked && prompt.contains(el) }));
  // The smallest: the shortest side first, then the area.
  const less = (a, b) => Math.min(a.w, a.h) < Math.min(b.w, b.h) || (Math.min(a.w, a.h) === Math.min(b.w, b.h) && a.w * a.h < b.w * b.h);
  const smallest = list.reduce((m, c) => (!m || less(c, m) ? c : m), null);
  return {
    viewport: window.innerWidth,
    count: list.length,
    smallest: smallest ? { w: smallest.w, h: smallest.h, what: describe(smallest.el) } : null,
    min_w: Math.min(...list.map((c) => c.w)),
    min_h: Math.min(...list.map((c) => c.h)),
    small: list.filter((c) => c.w < MIN - 0.05 || c.h < MIN - 0.05).slice(0, 5).map((c) => describe(c.el)),
    dock_short: list.filter((c) => c.dock && window.innerWidth <= PHONE && c.h < DOCK - 0.05).slice(0, 5).map((c) => describe(c.el)),
  };
}
"""

# The smallest target the by-click tests of this session met, by game: (w, h, what it was),
# for the figures an issue's closing note gives.
SMALLEST_TARGETS: dict[str, tuple[float, float, str]] = {}


def assert_targets_hit(page: Any) -> dict[str, Any]:
    """Every legal target and every control of the decision prompt is at least 24×24 CSS px,
    and at least 44 px tall in the prompt docked at the bottom of a phone (issue 35.4)."""
    seen = page.evaluate(TARGETS, [TARGET_MIN, PHONE_MAX_WIDTH, DOCK_MIN_HEIGHT])
    small = seen["smallest"]
    if small is not None:
        game = (
            str(page.evaluate("document.querySelector('[data-game]')?.dataset.game || ''")) or "?"
        )
        known = SMALLEST_TARGETS.get(game)
        side, area = min(small["w"], small["h"]), small["w"] * small["h"]
        if known is None or (side, area) < (min(known[0], known[1]), known[0] * known[1]):
            SMALLEST_TARGETS[game] = (small["w"], small["h"], small["what"])
    context = f"{page.url} {seen}"
    assert not seen["small"], f"a control smaller than {TARGET_MIN}×{TARGET_MIN} px — {context}"
    assert not seen["dock_short"], (
        f"a docked control lower than {DOCK_MIN_HEIGHT} px on a phone — {context}"
    )
    return dict(seen)


def assert_in_view(page: Any, *, board: bool = True) -> dict[str, Any]:
    """The decision's prompt ([data-decision]) and at least one legal target (.legal) are both
    inside the viewport, read with bounding boxes before any click and without scrolling;
    every legal target and prompt control is big enough to hit (``assert_targets_hit``) and
    the page does not scroll sideways (``assert_no_sideways_scroll``).

    ``board``: when the board offers targets outside the prompt (a shaft, a city cell), one of
    those is in view as well; the table brings one into view whenever a decision starts. Pass
    False for the later clicks of one decision (a card chosen, now its location).
    """
    seen = page.evaluate(IN_VIEW)
    context = str(seen)
    assert seen["prompt"] is not None, f"no [data-decision] prompt on the board — {context}"
    assert seen["prompt_in_view"], f"the prompt is not inside the viewport — {context}"
    assert seen["targets"], f"no legal target (.legal) on the board — {context}"
    assert seen["seen"], f"no legal target inside the viewport — {context}"
    if board and seen["board_targets"]:
        assert seen["board_seen"], f"no target on the board in view beside the prompt — {context}"
    # Every decision also checks the targets' size and that nothing is wider than the screen.
    assert_targets_hit(page)
    assert_no_sideways_scroll(page, "a decision")
    return dict(seen)


def seated_table(
    api: Any,
    owner: dict[str, str],
    *,
    bots: int,
    others: tuple[dict[str, str], ...] = (),
    options: dict[str, Any] | None = None,
    seats: int = 3,
    start: bool = True,
    private: bool = False,
    game: str = "luz",
) -> str:
    """Create a table through the API: owner at seat 0, then ``others``, then bots."""
    headers = {"Authorization": f"Bearer {owner['token']}"}
    body = {"game": game, "seats": seats, "options": options or {}, "private": private}
    response = api.post("/tables", json=body, headers=headers)
    response.raise_for_status()
    table_id = str(response.json()["id"])
    invite = response.json().get("invite_code")
    for player in others:
        joined = api.post(
            f"/tables/{table_id}/join",
            json={"invite": invite} if invite else None,
            headers={"Authorization": f"Bearer {player['token']}"},
        )
        joined.raise_for_status()
    for _ in range(bots):
        api.post(f"/tables/{table_id}/bots", json={}, headers=headers).raise_for_status()
    if start:
        api.post(f"/tables/{table_id}/start", headers=headers).raise_for_status()
    return table_id


def shot(target: Any, name: str, **options: Any) -> None:
    """Save a screenshot (a page or a locator) only when PARTIDA_SHOTS names a folder:
    the test suite never rewrites the images committed under static/screenshots."""
    folder = os.environ.get("PARTIDA_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        target.screenshot(path=str(Path(folder) / name), **options)


def single_game_server(tmp_path_factory: Any, game_id: str) -> Iterator[Any]:
    """A server on a fresh SQLite file with only one registered game (for a module fixture)."""
    yield from games_server(tmp_path_factory, (game_id,))


def games_server(
    tmp_path_factory: Any, game_ids: tuple[str, ...], **overrides: Any
) -> Iterator[Any]:
    """A server on a fresh SQLite file with these games registered (for a module fixture);
    ``overrides`` are settings (e.g. ``admin_token``).

    The migrations run on a worker thread: the sync Playwright driver owns this
    thread's event loop once the package's browser is up.
    """
    import importlib
    import uuid
    from concurrent.futures import ThreadPoolExecutor

    from app.main import create_app
    from app.migrate import upgrade_to_head
    from tests.conftest import test_settings
    from tests.support.live import LiveServer

    games = {g: importlib.import_module(f"app.games.{g}").ENGINE for g in game_ids}
    name = "-".join(game_ids)
    path = tmp_path_factory.mktemp(f"{name}-db") / f"{name}-{uuid.uuid4().hex[:8]}.sqlite3"
    url = f"sqlite+aiosqlite:///{path}"
    with ThreadPoolExecutor(1) as pool:
        pool.submit(upgrade_to_head, url).result()
    settings = test_settings(url, **overrides)
    server = LiveServer(
        create_app(settings, games=games), ws_max_size=settings.ws_max_frame_bytes
    ).start()
    yield server
    server.stop()


def api_client(server: Any) -> Iterator[Any]:
    import httpx

    with httpx.Client(base_url=server.url + "/api/v1", timeout=30) as client:
        yield client


def context_factory(browser: Any, server: Any) -> Iterator[Any]:
    """Yields make(locale, player, **kwargs) -> a browser context on ``server`` (closed after)."""
    import json

    contexts: list[Any] = []

    def make(locale: str = "en-GB", player: dict[str, str] | None = None, **kwargs: Any) -> Any:
        context = browser.new_context(
            base_url=server.url,
            locale=locale,
            extra_http_headers={"Accept-Language": locale},
            viewport=kwargs.pop("viewport", {"width": 1360, "height": 900}),
            reduced_motion="reduce",
            **kwargs,
        )
        context.set_default_timeout(10_000)
        if player is not None:
            context.add_init_script(
                f"localStorage.setItem('partida.player', {json.dumps(json.dumps(player))});"
            )
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


def game_fixtures(
    game_id: str | tuple[str, ...], prefix: str, **overrides: Any
) -> tuple[Any, Any, Any]:
    """The fixtures of a module that plays one game (or several) on its own server:
    ``<prefix>_server`` (module scope), ``<prefix>_api`` and ``<prefix>_context``;
    ``overrides`` are the server's settings.

        ga_server, ga_api, ga_context = game_fixtures("gluckauf", "ga")
    """
    import pytest

    game_ids = (game_id,) if isinstance(game_id, str) else game_id

    @pytest.fixture(scope="module", name=f"{prefix}_server")
    def server(tmp_path_factory: Any) -> Iterator[Any]:
        yield from games_server(tmp_path_factory, game_ids, **overrides)

    @pytest.fixture(name=f"{prefix}_api")
    def api(request: Any) -> Iterator[Any]:
        yield from api_client(request.getfixturevalue(f"{prefix}_server"))

    @pytest.fixture(name=f"{prefix}_context")
    def context(browser: Any, request: Any) -> Iterator[Any]:
        yield from context_factory(browser, request.getfixturevalue(f"{prefix}_server"))

    return server, api, context


def play_randomly(api: Any, player: dict[str, str], tid: str, moves: int) -> None:
    """Random legal actions for the person until ``moves`` were made or the game ended."""
    auth = {"Authorization": f"Bearer {player['token']}"}
    rng = random.Random(tid)
    made = 0
    deadline = time.monotonic() + 240
    while made < moves and time.monotonic() < deadline:
        state: dict[str, Any] = api.get(f"/tables/{tid}/state", headers=auth).json()
        if state["status"] == "finished":
            return
        if not state["legal_actions"]:
            time.sleep(0.02)  # a bot's move is on its way
            continue
        answer = api.post(
            f"/tables/{tid}/actions",
            json={"version": state["version"], "action": rng.choice(state["legal_actions"])},
            headers=auth,
        )
        made += answer.status_code == 200
    if made < moves:
        raise AssertionError(f"table {tid} did not get there")


def played_tables(
    url: str, ana: dict[str, str], game: str, seats: int, *, finished: bool = True
) -> dict[str, str]:
    """Through the API at ``url``: Ana's table of ``game`` a few moves in ("playing") and,
    when ``finished``, one played to the end ("finished"); random bots in the other seats."""
    import httpx

    auth = {"Authorization": f"Bearer {ana['token']}"}
    out = {}
    plans = (("playing", 6), ("finished", 100_000))[: 2 if finished else 1]
    with httpx.Client(base_url=url, timeout=30) as api:
        for name, moves in plans:
            tid = seated_table(api, ana, bots=0, seats=seats, game=game, start=False)
            for _ in range(seats - 1):
                api.post(
                    f"/tables/{tid}/bots", json={"level": "random"}, headers=auth
                ).raise_for_status()
            api.post(f"/tables/{tid}/start", headers=auth).raise_for_status()
            play_randomly(api, ana, tid, moves)
            out[name] = tid
    return out
