"""Issue 35.5 and 35.8, small things a player reads: the page cannot print a missing value;
the top bar never lets the language menu cover the name and its ✎; the create form's
selects show their options whole; a replay moves its pieces and lists the automatic
opponent (Hal) with the seats. On a phone (390×844) and a laptop (1366×768), in Spanish and
English.
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

from app.games import REGISTRY
from app.games.base import action_adapter
from tests.e2e.conftest import auth, make_player
from tests.e2e.helpers import LAPTOP, PHONE, game_fixtures, seated_table, shot

r3_server, r3_api, r3_context = game_fixtures(("ginkgopolis", "luz", "mine", "gluckauf"), "r3")

SIZES = [
    pytest.param(PHONE, "es-ES", id="phone-es"),
    pytest.param(PHONE, "en-GB", id="phone-en"),
    pytest.param(LAPTOP, "es-ES", id="laptop-es"),
    pytest.param(LAPTOP, "en-GB", id="laptop-en"),
]


# ------------------------------------------------------------------ no raw value


def test_no_path_of_the_page_prints_a_missing_value(r3_context: Any) -> None:
    """The DOM's own builders and the translations take a missing value as nothing."""
    page = r3_context(viewport=PHONE).new_page()
    page.goto("/")
    page.wait_for_selector("#lang-switch option", state="attached")
    drawn = page.evaluate(
        """async () => {
          const { h, fill } = await import("/static/js/dom.js");
          const { formatMessage } = await import("/static/js/i18n.js");
          const el = document.createElement("div");
          const out = {};
          el.replaceChildren("a", null, undefined, false, NaN, { x: 1 }, ["b", null]);
          out.replaceChildren = el.textContent;
          el.append(null, "c", undefined);
          out.append = el.textContent;
          el.prepend(undefined, "z", null);
          out.prepend = el.textContent;
          const child = el.firstChild;
          child.after(null, "y");
          child.before(undefined);
          out.siblings = el.textContent;
          out.h = h("p", null, "Leave", null, undefined, NaN, { a: 1 }).textContent;
          out.fill = fill(document.createElement("p"), null, "x", [undefined, "y"]).textContent;
          out.format = [
            formatMessage("Hi {name}!", { name: null }),
            formatMessage("Hi {name}!", { name: undefined }),
            formatMessage("Hi {name}!", { name: { x: 1 } }),
            formatMessage("{names}", { names: { list: ["Ana", null, undefined, "Ben"] } }),
            formatMessage("{n} left", { n: NaN }),
          ];
          return out;
        }"""
    )
    assert drawn["replaceChildren"] == "ab"
    assert drawn["append"] == "abc"
    assert drawn["prepend"] == "zabc"
    assert drawn["siblings"] == "zyabc"
    assert drawn["h"] == "Leave"
    assert drawn["fill"] == "xy"
    assert drawn["format"] == ["Hi {name}!", "Hi {name}!", "Hi !", "Ana, Ben", "{n} left"]


# ------------------------------------------------------------------ the top bar

# The top bar's parts, each whole on the screen and none over another.
TOPBAR = """
() => {
  const parts = ['.brand', '#table-title', '#rules-link', '#conn', '.whoami-name', '#whoami button', '#lang-switch']
    .map((sel) => [sel, document.querySelector(sel)])
    .filter(([, el]) => el && el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden');
  const out = [];
  const boxes = parts.map(([sel, el]) => [sel, el.getBoundingClientRect()]);
  for (const [sel, r] of boxes) {
    if (r.left < 0 || r.right > window.innerWidth + 0.5) out.push(`${sel} is off the screen: ${r.left}..${r.right}`);
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, ra] = boxes[i], [b, rb] = boxes[j];
      const x = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
      const y = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
      if (x > 0.5 && y > 0.5) out.push(`${a} overlaps ${b} by ${x.toFixed(1)} px`);
    }
  }
  // The name and the ✎ are what a tap on them reaches.
  for (const sel of ['.whoami-name', '#whoami button']) {
    const el = document.querySelector(sel);
    if (!el) { out.push(`no ${sel}`); continue; }
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    if (!top || !(top === el || el.contains(top))) out.push(`${sel} is covered by ${top?.tagName}.${top?.className}`);
  }
  return out;
}
"""


@pytest.mark.parametrize(("viewport", "locale"), SIZES)
def test_the_top_bar_never_covers_the_name_or_its_pencil(
    r3_context: Any, r3_api: httpx.Client, viewport: dict[str, int], locale: str
) -> None:
    owner = make_player(r3_api, "Maximiliano")
    table_id = seated_table(r3_api, owner, bots=1, seats=2, game="ginkgopolis")
    page = r3_context(locale=locale, player=owner, viewport=viewport).new_page()
    for path, ready in (
        (f"/tables/{table_id}", "body[data-turn=me] #table-title:not(:empty)"),
        ("/", "#my-tables-title"),
        (f"/players/{owner['id']}", "h1"),
        ("/games/luz/rules", "h1"),
    ):
        page.goto(path)
        page.wait_for_selector(ready)
        expect(page.get_by_test_id("whoami")).to_be_visible()
        page.evaluate("window.scrollTo(0, 0)")  # the bar is at the top of the page
        assert page.evaluate(TOPBAR) == [], f"{path} at {viewport['width']} px, {locale}"
    size = "phone" if viewport == PHONE else "laptop"
    page.goto(f"/tables/{table_id}")
    page.wait_for_selector("body[data-turn=me] #table-title:not(:empty)")
    page.evaluate("window.scrollTo(0, 0)")
    shot(page.locator(".topbar"), f"topbar-{size}-{locale[:2]}.png")


# ------------------------------------------------------------------ the create form

# Each option of each select of the create form, chosen in turn: the closed select shows it
# whole (its text's width against the room the box gives it, less padding and arrow), or the
# line under the select does, whole (options-form.js wholeChoices).
CUT_OPTIONS = """
async () => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const probe = document.createElement('span');
  probe.style.cssText = 'position:absolute;visibility:hidden;white-space:pre;left:-9999px';
  document.body.append(probe);
  const out = [];
  let shown = 0;
  for (const select of document.querySelectorAll('#create-form select')) {
    if (!select.getClientRects().length) continue;
    const cs = getComputedStyle(select);
    probe.style.font = cs.font;
    const room = select.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
    const chosen = select.value;
    for (const option of Array.from(select.options)) {
      select.value = option.value;
      select.dispatchEvent(new Event('change', { bubbles: true }));
      await frame();
      probe.textContent = option.text;
      if (probe.getBoundingClientRect().width <= room) continue;
      const line = select.nextElementSibling;
      const whole = line && line.classList.contains('choice-whole') && line.getClientRects().length
        && line.textContent === option.text && line.scrollWidth <= line.clientWidth + 1
        && line.getBoundingClientRect().right <= window.innerWidth;
      if (whole) shown += 1;
      else out.push(`${select.id || select.name}: "${option.text}" is cut and not shown whole`);
    }
    select.value = chosen;
    select.dispatchEvent(new Event('change', { bubbles: true }));
    await frame();
  }
  probe.remove();
  return { cut: out, shown };
}
"""


@pytest.mark.parametrize(("viewport", "locale"), SIZES)
def test_the_create_forms_selects_show_their_options_whole(
    r3_context: Any, r3_api: httpx.Client, viewport: dict[str, int], locale: str
) -> None:
    owner = make_player(r3_api, "Alice2")
    page = r3_context(locale=locale, player=owner, viewport=viewport).new_page()
    page.goto("/")
    page.wait_for_selector("#create-form #create-game")
    cut: list[str] = []
    shown = 0
    games = page.locator("#create-game option").evaluate_all("els => els.map(e => e.value)")
    for game in games:
        page.select_option("#create-game", game)
        # Every part of the form that opens (time control, options) is open.
        for summary in page.locator("#create-form details:not([open]) > summary").all():
            summary.click()
        seen = page.evaluate(CUT_OPTIONS)
        cut += [f"{game} {line}" for line in seen["cut"]]
        shown += seen["shown"]
    size = "phone" if viewport == PHONE else "laptop"
    shot(page, f"create-form-{size}-{locale[:2]}.png", full_page=True)
    assert cut == []
    if viewport == PHONE:
        assert shown, "no long option on a phone? then this test checks nothing"


# ------------------------------------------------------------------ replays


def _play_out(api: httpx.Client, table_id: str, player: dict[str, str]) -> None:
    """The player's decisions, chosen by the game's bot, through the API to the end."""
    rng = random.Random(35)
    engine = REGISTRY["ginkgopolis"]
    adapter = action_adapter(engine)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        state = api.get(f"/tables/{table_id}/state", headers=auth(player)).json()
        if state["status"] == "finished":
            return
        if not state["legal_actions"]:
            time.sleep(0.02)  # Hal or a bot is on its way
            continue
        legal = [adapter.validate_python(a) for a in state["legal_actions"]]
        view = engine._view_model.model_validate(state["view"])  # type: ignore[attr-defined]
        choice = engine.bot(view, legal, rng)
        body = {"version": state["version"], "action": choice.model_dump(mode="json")}
        answer = api.post(f"/tables/{table_id}/actions", json=body, headers=auth(player))
        if answer.status_code != 409:
            answer.raise_for_status()
    raise AssertionError("the game did not end")


@pytest.fixture(scope="module")
def solo_finished(r3_server: Any) -> Iterator[dict[str, Any]]:
    with httpx.Client(base_url=r3_server.url + "/api/v1", timeout=30) as http:
        ana = make_player(http, "Ana")
        table_id = seated_table(http, ana, bots=0, seats=1, game="ginkgopolis")
        _play_out(http, table_id, ana)
        yield {"ana": ana, "table": table_id}


@pytest.mark.parametrize(("viewport", "locale"), [SIZES[0], SIZES[3]])
def test_a_replay_lists_hal_and_moves_its_pieces(
    r3_context: Any, solo_finished: dict[str, Any], viewport: dict[str, int], locale: str
) -> None:
    page = r3_context(locale=locale, player=solo_finished["ana"], viewport=viewport).new_page()
    page.emulate_media(reduced_motion="no-preference")
    page.goto(f"/replays/{solo_finished['table']}?v=3")
    page.wait_for_selector("body[data-status=ready] #board .gk-city")
    # The seat list: Ana and Hal, each with their place.
    rows = page.locator("#seats .seat-row")
    expect(rows).to_have_count(2)
    hal = page.locator("#seats .seat-row[data-other]")
    expect(hal).to_have_count(1)
    expect(hal.locator(".seat-name")).to_have_text("Hal")
    expect(hal.locator(".seat-score")).to_contain_text(re.compile(r"\d"))
    # A step forward moves the pieces (when the person did not ask for reduced motion).
    before = page.evaluate("window.partidaMotion.flights")
    for _ in range(6):
        page.click("#replay-next")
        page.wait_for_function("() => !document.querySelector('.flip-moving')")
    assert page.evaluate("window.partidaMotion.flights") > before
    # …and with reduced motion it does not.
    page.emulate_media(reduced_motion="reduce")
    still = page.evaluate("window.partidaMotion.flights")
    for _ in range(3):
        page.click("#replay-next")
    expect(page.locator("body")).to_have_attribute("data-version", "12")
    assert page.evaluate("window.partidaMotion.flights") == still
    size = "phone" if viewport == PHONE else "laptop"
    shot(page, f"replay-hal-{size}-{locale[:2]}.png", full_page=True)
