"""Readable everywhere (issue 18.8), in the browser, on a phone in Spanish and a laptop in
English: the main pages show no "null", "undefined", "NaN", raw translation key or "(s)";
Ginkgopolis names cells as its board's edges label them and characters by name; the
replay's "This step" reads like the log; bad links and unknown pages say so in the page's
language instead of loading forever.

One Ginkgopolis server and one set of tables (open, mid-game, finished) for the module; the
games are moved on through the API, the pages only read.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from app.games.ginkgopolis.describe import cell_name
from tests.e2e.helpers import game_fixtures, shot

rd_server, rd_api, rd_context = game_fixtures("ginkgopolis", "rd")

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 768}}

# Every text node and the attributes people read (tooltips, labels, field values).
_SCAN = """() => {
  const bad = (s) =>
    /\\b(null|undefined|NaN)\\b/.test(s) ||
    /^[a-z_]+\\.[a-z0-9_.]+$/.test(s) ||
    /\\w\\((s|n|es)\\)/.test(s) ||
    /\\{\\w+(, plural|\\})/.test(s);
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const s = n.textContent.trim();
    if (s && !n.parentElement.closest("script, style") && bad(s)) out.push(s);
  }
  for (const el of document.body.querySelectorAll("*")) {
    for (const a of ["title", "aria-label", "placeholder", "alt", "value"]) {
      const s = el.getAttribute(a);
      if (s && bad(s.trim())) out.push(`${a}=${s}`);
    }
  }
  if (bad(document.title)) out.push(`title: ${document.title}`);
  // What a person sees, as the page lays it out (CSS hides what is not for this screen): no
  // missing value, no object, no name said twice in a row ("Alice2Alice2", issue 35.5).
  const seen = document.body.innerText;
  for (const m of seen.matchAll(/\\b(null|undefined|NaN)\\b|\\[object \\w+\\]/g)) out.push(`seen: ${m[0]}`);
  for (const m of seen.matchAll(/(\\p{Lu}[\\p{L}\\d]{2,})\\1(?![\\p{L}\\d])/gu)) out.push(`twice: ${m[0]}`);
  return out;
}"""


def _play(http: httpx.Client, player: dict[str, str], table_id: str, until: Any) -> bool:
    """Make the player's first legal move (bots answer at once) until ``until(state)``: True
    then, False if the game ends first (the deal decides: about one Ginkgopolis game in eight
    played this way ends before its city grows past nine tiles).

    Bounded by time, not by a count of looks: on a busy machine the bots take longer, and
    each look while they think would use up a count."""
    auth = {"Authorization": f"Bearer {player['token']}"}
    state = http.get(f"/tables/{table_id}/state", headers=auth).json()
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if until(state):
            return True
        if state["status"] == "finished":
            return False
        answer = None
        if state["legal_actions"]:
            body = {"version": state["version"], "action": state["legal_actions"][0]}
            answer = http.post(f"/tables/{table_id}/actions", json=body, headers=auth)
            if answer.status_code != 409:  # 409: a bot moved in between; look again
                answer.raise_for_status()
        else:
            time.sleep(0.02)  # a bot's move is on its way
        # The answer to a move is the mover's new picture; otherwise look again.
        ok = answer is not None and answer.status_code == 200
        state = answer.json() if ok else http.get(f"/tables/{table_id}/state", headers=auth).json()
    raise AssertionError(f"{table_id}: the game did not get there")


@pytest.fixture(scope="module")
def tables(rd_server: Any) -> Iterator[dict[str, Any]]:
    """Ana's tables: open (Beto seated), mid-game and finished (each against a bot)."""
    with httpx.Client(base_url=rd_server.url + "/api/v1", timeout=30) as http:
        ana, beto = (http.post("/players", json={"name": n}).json() for n in ("Ana", "Beto"))
        auth = {"Authorization": f"Bearer {ana['token']}"}

        def table(seats: int, start: bool) -> str:
            body = {"game": "ginkgopolis", "seats": seats, "options": {}}
            tid = str(http.post("/tables", json=body, headers=auth).json()["id"])
            if start:
                http.post(f"/tables/{tid}/bots", json={}, headers=auth).raise_for_status()
                http.post(f"/tables/{tid}/start", headers=auth).raise_for_status()
            return tid

        open_id = table(3, start=False)
        http.post(
            f"/tables/{open_id}/join", headers={"Authorization": f"Bearer {beto['token']}"}
        ).raise_for_status()

        # Mid-game: on until a tile was urbanized (a log line that names a cell); a game that
        # ends before that makes way for another.
        def urbanized(state: dict[str, Any]) -> bool:
            return len(state["view"]["city"]) > 9 and bool(state["legal_actions"])

        for _ in range(8):
            playing = table(2, start=True)
            if _play(http, ana, playing, urbanized):
                break
        else:
            raise AssertionError("eight games in a row ended before a city of ten tiles")
        finished = table(2, start=True)
        assert _play(http, ana, finished, lambda s: s["status"] == "finished")
        beto_auth = {"Authorization": f"Bearer {beto['token']}"}

        def with_beto(seats: int, bots: int = 0, start: bool = True) -> str:
            tid = table(seats, start=False)
            http.post(f"/tables/{tid}/join", headers=beto_auth).raise_for_status()
            for _ in range(bots):
                http.post(f"/tables/{tid}/bots", json={}, headers=auth).raise_for_status()
            if start:
                http.post(f"/tables/{tid}/start", headers=auth).raise_for_status()
            return tid

        # Issue 35.5: a waiting room with every seat taken, the table "Play again" makes, a
        # table cancelled mid-game, and a game one player resigned from (ranked last).
        full = with_beto(2, start=False)
        again = http.post(f"/tables/{finished}/rematch", headers=auth)
        again.raise_for_status()
        cancelled = with_beto(2)
        http.post(f"/tables/{cancelled}/cancel", headers=auth).raise_for_status()
        http.post(
            f"/tables/{cancelled}/cancel/vote", json={"agree": True}, headers=beto_auth
        ).raise_for_status()
        resigned = with_beto(3, bots=1)
        http.post(f"/tables/{resigned}/resign", headers=beto_auth).raise_for_status()
        assert _play(http, ana, resigned, lambda s: s["status"] == "finished")
        # The replay step of one of Ana's own moves, with the server's line for it.
        steps = http.get(f"/tables/{finished}/replay/steps?perspective=0&lang=es&count=500").json()[
            "steps"
        ]
        own = next(s for s in steps[5:] if s["kind"] == "action" and s["actor"] == 0)
        yield {
            "ana": ana,
            "open": open_id,
            "playing": playing,
            "finished": finished,
            "step": own,
            "full": full,
            "again": str(again.json()["id"]),
            "cancelled": cancelled,
            "resigned": resigned,
        }


def _open(page: Any, path: str, ready: str) -> None:
    page.goto(path)
    page.wait_for_selector(ready)


def _check_ginkgopolis_names(page: Any) -> None:
    """Cells are named as the board's edges label them; characters by name, never C07."""
    building = page.locator(".gk-city .gk-building").last
    x, y = (int(v) for v in building.get_attribute("data-cell").split(","))
    name = cell_name((x, y))
    assert name in building.get_attribute("aria-label")
    column, row = re.fullmatch(r"(-?[a-z]+)(-?\d+)", name).groups()  # type: ignore[union-attr]
    style = building.evaluate("el => [el.style.gridColumn, el.style.gridRow]")
    edge_col = page.locator(".gk-edge-col", has_text=re.compile(f"^{column}$"))
    edge_row = page.locator(".gk-edge-row", has_text=re.compile(f"^{row}$"))
    assert edge_col.evaluate("el => el.style.gridColumn") == style[0]
    assert edge_row.evaluate("el => el.style.gridRow") == style[1]
    text = page.locator("body").inner_text()
    titles = " ".join(page.locator("[title]").evaluate_all("els => els.map(e => e.title)"))
    assert not re.search(r"\[-?\d+, -?\d+\]", text + titles), "a cell named by coordinates"
    assert not re.search(r"\bC\d\d\b", text + titles), "a character named by its code"
    chars = page.locator(".gk-card.char").evaluate_all("els => els.map(e => e.title)")
    assert chars and all(
        re.match(r"(Urbanista|Constructor|Capataz|\w+ (Planner|Builder|Foreman))", c) for c in chars
    ), chars
    # The log's lines name cells the same way ("… en h10 …").
    expect(page.locator("#log-list")).to_contain_text(re.compile(r"\b[a-z]\d{1,2}\b"))


@pytest.mark.parametrize(("lang", "size"), [("es", "phone"), ("en", "laptop")])
def test_the_main_pages_read_as_words(
    rd_context: Any, tables: dict[str, Any], lang: str, size: str
) -> None:
    locale = "es-ES" if lang == "es" else "en-GB"
    page = rd_context(locale=locale, player=tables["ana"], viewport=SIZES[size]).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    pages = {
        "lobby": ("/", "#my-tables-title"),
        "open": (f"/tables/{tables['open']}", "body[data-status=open] #setup:not([hidden])"),
        "playing": (f"/tables/{tables['playing']}", "body[data-turn=me] .gk-city .gk-building"),
        "finished": (f"/tables/{tables['finished']}", "body[data-status=finished] #result"),
        "replay": (
            f"/replays/{tables['finished']}?v={tables['step']['version']}",
            "body[data-status=ready] [data-testid=step-action]",
        ),
        "player": (f"/players/{tables['ana']['id']}", "[data-testid=history]"),
        "admin": ("/admin", "h1"),
        # Issue 35.5: every seat taken, Play again's table, a cancelled one, a resignation,
        # and every kind of address that leads nowhere (seen by a player with a name).
        "full": (f"/tables/{tables['full']}", "body[data-status=open] [data-action=start]"),
        "again": (f"/tables/{tables['again']}", "body[data-status=open] #setup:not([hidden])"),
        "cancelled": (f"/tables/{tables['cancelled']}", "body[data-status=finished] #result"),
        "resigned": (f"/tables/{tables['resigned']}", "body[data-status=finished] #result"),
        "no-table": ("/tables/no-such-table", "body[data-status=gone] #gone h1"),
        "no-player": ("/players/no-such-player", "body[data-status=gone] #gone h1"),
        "no-replay": ("/replays/no-such-table", "body[data-status=gone] #gone h1"),
        "no-page": ("/no/such/page", "body[data-status=gone] #gone h1"),
    }
    for name, (path, ready) in pages.items():
        _open(page, path, ready)
        if name == "playing":
            # On a phone the log is a one-line summary that opens on a tap (issue 35.2).
            log = page.locator("#log details.fold")
            if log.get_attribute("open") is None:
                log.locator("> summary").click()
            expect(page.locator("#log-list li").nth(3)).to_be_visible()
            _check_ginkgopolis_names(page)
        if name == "replay":
            # "This step" says what was done with the game's own words, as the log does.
            action = page.locator("[data-testid=step-action]")
            played = "jugó" if lang == "es" else "played"
            if lang == "es":
                expect(action).to_have_text(f"Ana {played}: {tables['step']['action_text']}")
            else:
                expect(action).to_contain_text(f"Ana {played}: ")
            assert not re.search(r"\w+: (null|\w+ \()|\(\w+: ", action.inner_text())
        if name == "full":
            # The host's waiting room once every seat is taken: Start, Leave, Delete, nothing else.
            expect(page.locator("#setup [data-action=start]")).to_be_enabled()
            expect(page.locator("#setup [data-action=leave]")).to_be_visible()
        if name == "cancelled":
            expect(page.locator("#turn-banner")).to_contain_text(
                "cancelada" if lang == "es" else "cancelled"
            )
            # The board of a cancelled game waits for nobody.
            expect(page.locator("#board")).not_to_contain_text(
                "Esperando" if lang == "es" else "Waiting", use_inner_text=True
            )
            expect(page.locator("#board [data-waiting]:visible")).to_have_count(0)
        if name == "resigned":
            # The resignation's line names the player, never "Seat 2".
            lines = page.get_by_test_id("tiebreak")
            expect(lines.last).to_contain_text("Beto")
            expect(page.locator("#result")).not_to_contain_text(
                re.compile(r"\b(Asiento|Seat|asiento|seat) \d")
            )
        if name == "admin":
            # The heading is light on the felt (it was dark ink on dark green).
            rgb = page.locator("h1").evaluate("el => getComputedStyle(el).color")
            assert sum(int(v) for v in re.findall(r"\d+", rgb)[:3]) > 600, rgb
        shot(page, f"readable-{name}-{lang}-{size}.png", full_page=True)
        assert page.evaluate(_SCAN) == [], f"{name} ({lang}, {size})"
    # Counted words agree with their number, by the page language's plural rules.
    forms = page.evaluate(
        """async () => {
          const { formatMessage } = await import("/static/js/i18n.js");
          const m = "{n, plural, one {# carta} other {# cartas}}";
          return [1, 2, 0].map((n) => formatMessage(m, { n }, "es"));
        }"""
    )
    assert forms == ["1 carta", "2 cartas", "0 cartas"]
    assert errors == []


def test_bad_links_and_unknown_pages_say_so_in_the_page_language(
    rd_context: Any, tables: dict[str, Any]
) -> None:
    page = rd_context(locale="es-ES", viewport=SIZES["phone"]).new_page()
    said = {
        "/tables/no-such-table": "Esta mesa no existe",
        "/replays/no-such-table": "Esta mesa no existe",
        "/players/no-such-player": "Este jugador no existe",
        "/replay/no-such-table": "No hay ninguna página en esta dirección",  # not an address
        "/tables/no-such-table/extra": "No hay ninguna página en esta dirección",
    }
    for path, text in said.items():
        response = page.goto(path)
        assert response is not None
        expect(page.locator("body")).to_have_attribute("data-status", "gone")
        gone = page.locator("[data-testid=gone]")
        expect(gone.locator("h1")).to_contain_text(text)
        expect(gone.get_by_role("link", name="Volver al salón")).to_be_visible()
        # Nothing of a table that is not there: no board, no "Loading…", no connection dot.
        expect(page.locator("#board")).to_be_hidden()
        shot(page, f"readable-gone-{path.strip('/').replace('/', '-')}.png", full_page=True)
    # The page follows a change of language like any other.
    page.goto("/tables/no-such-table")
    expect(page.locator("[data-testid=gone] h1")).to_contain_text("Esta mesa no existe")
    page.select_option("#lang-switch", "en")
    expect(page.locator("[data-testid=gone] h1")).to_have_text(
        "This table does not exist (any more)."
    )
    assert page.title().startswith("This table does not exist")
