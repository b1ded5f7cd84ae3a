"""See what happened (issue 18.4): moves travel, each player's last move stays marked, sounds.

One Luz table against two bots: a page that allows motion sees the played card fly from the
hand to the trick (a CSS transform transition on the card, caught mid-flight), a page that
asks for reduced motion sees none; both keep each seat's last move marked until its next one.
"""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import auth, make_player
from tests.e2e.helpers import TURN_OR_END, my_move, seated_table, shot

# Records every transform transition that starts on a keyed element (static/js/motion.js);
# a card landing under one of the keys in window.__freeze is paused early in its flight so the
# test can look at it (the next step waits: the frame queue waits for flights to land).
FLIGHTS = """
window.__flights = [];
document.addEventListener("transitionrun", (e) => {
  const key = e.target && e.target.dataset ? e.target.dataset.flip : null;
  if (!key || e.propertyName !== "transform") return;
  window.__flights.push(key);
  if (window.__freeze && window.__freeze.includes(key)) {
    for (const a of e.target.getAnimations()) { a.pause(); a.currentTime = 110; }
    window.__frozen = key;
  }
}, true);
"""

MY_CARD = """() => {
  const log = window.partida.state.log;
  const mine = log.filter((e) => e.type === "card_played" && e.seat === 0);
  return mine.length ? mine[mine.length - 1].card : null;
}"""


def _until_a_card_to_play(page: Any) -> None:
    for _ in range(12):
        page.wait_for_selector(TURN_OR_END)
        if page.locator(".hand-mine button.card.legal").count():
            return
        my_move(page)
    raise AssertionError("no card to play")


def _move(page: Any) -> None:
    """Make my move by clicks when it is my turn, and wait until the table has moved past it."""
    page.wait_for_selector(TURN_OR_END)
    version = int(page.get_attribute("body", "data-version") or 0)
    my_move(page)
    page.wait_for_function(
        "(v) => Number(document.body.dataset.version) > v && !window.partida.state.pending",
        arg=version,
    )


def _marked(page: Any, card: str) -> Any:
    return page.locator(f"[data-flip='luz-card-{card}'], [data-flip='luz-last-{card}']")


def test_a_played_card_travels_and_each_last_move_stays_marked(
    new_context: Any, api: httpx.Client
) -> None:
    ana = make_player(api, "Ana")
    table_id = seated_table(api, ana, bots=2, options={"first_player": 0})
    moving = new_context(
        player=ana, reduced_motion="no-preference", viewport={"width": 1366, "height": 768}
    )
    moving.add_init_script(FLIGHTS)
    still = new_context()  # reduced motion (the package's default): a spectator
    still.add_init_script(FLIGHTS)
    page = moving.new_page()
    watcher = still.new_page()
    page.goto(f"/tables/{table_id}")
    watcher.goto(f"/tables/{table_id}")

    # Motion on for my card only: every step shown with its flight takes a while, and the
    # shell reads the person's setting at each step.
    page.emulate_media(reduced_motion="reduce")
    _until_a_card_to_play(page)
    page.emulate_media(reduced_motion="no-preference")
    hand_card = page.locator(".hand-mine button.card.legal").first
    slot = hand_card.get_attribute("data-slot")
    # Freeze only the card that leaves this slot (whichever key it lands under).
    page.evaluate(
        """(slot) => {
          const keys = [];
          window.__freeze = keys;
          const watch = new MutationObserver(() => {
            for (const el of document.querySelectorAll(`[data-flip-from~="luz-slot-0-${slot}"]`)) {
              if (!keys.includes(el.dataset.flip)) keys.push(el.dataset.flip);
            }
          });
          watch.observe(document.getElementById("board"), { childList: true, subtree: true });
        }""",
        slot,
    )
    hand_card.click()
    key = page.wait_for_function("() => window.__frozen || null").json_value()
    flying = page.locator(f"[data-flip='{key}']")
    # Mid-flight: the card is drawn away from where it lands, moving by a transition.
    transform = flying.evaluate("(el) => getComputedStyle(el).transform")
    assert transform not in ("none", ""), transform
    assert flying.evaluate(
        "(el) => el.getAnimations().some((a) => a.transitionProperty === 'transform')"
    )
    shot(page, "move-animation.png")
    page.evaluate(
        "() => { window.__freeze = []; document.getAnimations().forEach((a) => a.play()); }"
    )
    page.emulate_media(reduced_motion="reduce")
    card = page.wait_for_function(MY_CARD).json_value()
    assert key in (f"luz-card-{card}", f"luz-last-{card}")

    # The bots answer; my card keeps its mark (and my name) until my next move.
    page.wait_for_selector(TURN_OR_END)
    for p in (page, watcher):
        expect(p.locator(".last-move[data-last-seat='1']").first).to_be_attached()
        mark = _marked(p, card).and_(p.locator(".last-move[data-last-seat='0']"))
        expect(mark).to_have_count(1)
        expect(mark.locator(".last-move-tag")).to_have_text("Ana")
    _move(page)
    for p in (page, watcher):
        expect(p.locator(".last-move[data-last-seat='0']")).to_have_count(1)
        expect(_marked(p, card).and_(p.locator(".last-move"))).to_have_count(0)

    assert page.evaluate("() => window.partidaMotion.flights") > 0
    # Reduced motion: the same moves, drawn in place.
    assert watcher.evaluate("() => window.__flights.length") == 0
    assert watcher.evaluate("() => window.partidaMotion.flights") == 0


def test_sounds_are_off_until_switched_on_and_the_choice_is_kept(
    new_context: Any, api: httpx.Client
) -> None:
    ben = make_player(api, "Ben")
    table_id = seated_table(api, ben, bots=2, options={"first_player": 0})
    page = new_context(player=ben).new_page()
    page.goto(f"/tables/{table_id}")
    switch = page.locator("#turn-banner [data-action=sound]")
    expect(switch).to_have_attribute("aria-checked", "false")
    assert page.evaluate("() => localStorage.getItem('partida.sound')") is None
    _move(page)  # nothing sounds while the switch is off
    assert page.evaluate("() => window.partidaSound.played.length") == 0

    switch.click()
    expect(switch).to_have_attribute("aria-checked", "true")
    expect(switch).to_be_focused()
    # A chime says sounds work: the first sound, played by the click itself (the bots play
    # on meanwhile, so their moves may already have sounded after it).
    played = page.evaluate("() => window.partidaSound.played.length")
    assert played >= 1
    assert page.evaluate("() => window.partidaSound.played[0]") == "move"
    _move(page)
    page.wait_for_function("(n) => window.partidaSound.played.length > n", arg=played)

    page.reload()
    expect(switch).to_have_attribute("aria-checked", "true")
    switch.click()
    expect(switch).to_have_attribute("aria-checked", "false")
    page.reload()
    expect(switch).to_have_attribute("aria-checked", "false")
    assert page.evaluate("() => localStorage.getItem('partida.sound')") == "0"


def test_the_banners_controls_outlive_the_frames_that_redraw_it(
    new_context: Any, api: httpx.Client
) -> None:
    """Every frame redraws the turn banner; its buttons (undo, notifications, sounds) stay the
    same elements, so a click pressed on one is not released on its replacement (no click),
    and a keyboard user's focus stays where it was."""
    cleo = make_player(api, "Cleo")
    table_id = seated_table(api, cleo, bots=2, options={"first_player": 0})
    page = new_context(player=cleo).new_page()
    page.goto(f"/tables/{table_id}")
    page.wait_for_selector(TURN_OR_END)
    expect(page.locator("#turn-banner [data-action=sound]")).to_be_visible()
    page.evaluate(
        "() => { window.__kept = [...document.querySelectorAll('#turn-banner button')]; }"
    )
    page.locator("#turn-banner [data-action=sound]").focus()
    version = int(page.get_attribute("body", "data-version") or 0)
    # My move from elsewhere (a bot's API call, another tab): this page only hears the frames,
    # mine, then the bots' (the undo button comes and goes meanwhile).
    state = api.get(f"/tables/{table_id}/state", headers=auth(cleo)).json()
    body = {"version": state["version"], "action": state["legal_actions"][0]}
    api.post(f"/tables/{table_id}/actions", json=body, headers=auth(cleo)).raise_for_status()
    page.wait_for_function("(v) => Number(document.body.dataset.version) > v + 2", arg=version)
    page.wait_for_selector(TURN_OR_END)
    assert page.evaluate(
        """() => window.__kept.every((b) => b.isConnected)
              && window.__kept.every((b, i) => b === document.querySelectorAll(
                   '#turn-banner button:not([data-action=undo])')[i])"""
    )
    assert page.evaluate("() => document.activeElement?.dataset.action") == "sound"


# Elements at both edges of a phone, a narrow one in the corner, one inside a box that
# scrolls sideways; the names as long as seat names get (the tag cuts them at 7rem).
EDGES = """async () => {
  const { markLastMoves } = await import("/static/js/lastmove.js");
  const root = document.createElement("div");
  root.innerHTML = `
    <div style="display:flex;justify-content:space-between">
      <span data-flip="left" style="display:inline-block;width:1.2rem">1</span>
      <span data-flip="middle" style="display:inline-block;width:3rem">2</span>
      <span data-flip="right" style="display:inline-block;width:1.2rem">3</span>
    </div>
    <div style="margin-left:auto;width:2rem"><b data-flip="corner" style="display:block">4</b></div>
    <div style="display:flex;justify-content:flex-end;padding-right:4rem"><span style="display:flex">
      <span data-flip="worker" style="display:inline-flex">●</span></span></div>
    <div style="overflow-x:auto;width:100%"><div style="width:900px;display:flex;justify-content:flex-end">
      <i data-flip="scrolled" style="display:inline-block;width:1rem">5</i></div></div>`;
  document.body.prepend(root);
  const latest = new Map([
    [0, { version: 3, keys: ["left", "scrolled"] }],
    [1, { version: 4, keys: ["right"] }],
    [2, { version: 5, keys: ["corner", "middle"] }],
    [3, { version: 6, keys: ["worker"] }],
  ]);
  markLastMoves(root, latest, (seat) => ["Bot 2 (aleatorio)", "Maximiliana Echeverría", "Ñ", "Bot 3 (aleatorio)"][seat]);
  const width = document.documentElement.clientWidth;
  const tags = [...root.querySelectorAll(".last-move-tag")].map((t) => {
    const r = t.getBoundingClientRect();
    return { key: t.parentElement.dataset.flip, left: r.left, right: r.right, width };
  });
  return { tags, page: document.documentElement.scrollWidth, width };
}"""


def test_last_move_tags_never_widen_the_page(new_context: Any) -> None:
    """A tag hangs off its element's corner; at the screen's edge it slides back inside, so
    a phone never scrolls sideways because of whose move it was (issue 18.4)."""
    for viewport in ({"width": 390, "height": 844}, {"width": 1366, "height": 768}):
        page = new_context(viewport=viewport).new_page()
        page.goto("/")
        out = page.evaluate(EDGES)
        assert len(out["tags"]) == 6, out
        for tag in out["tags"]:
            if tag["key"] != "scrolled":  # its box scrolls: the page does not widen
                assert tag["left"] >= 0 and tag["right"] <= out["width"], tag
        assert out["page"] <= viewport["width"], out
