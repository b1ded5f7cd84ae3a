"""Taking a move back, turn clocks and absent players, in the browser (the generic shell,
with the test game "pick" and its generic board).

These run on a server of their own whose clock keeper ticks fast (clock_tick_seconds=0.2)
and marks connected players as seen every 0.5 s, so time-outs and absences happen within
a few seconds.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import api_client, context_factory, shot
from tests.support.live import LiveServer, temporary_server

PASS = "#board .action-buttons button:has-text('pass turn')"
TAKE_ONE = "#board .action-buttons button:has-text('take (count: 1)')"
UNDO = "#turn-banner [data-action=undo]"


@pytest.fixture(scope="module")
def turns_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # Entered on a worker thread: the migrations run an event loop of their own, which
    # this thread cannot once the sync Playwright driver owns it.
    manager = temporary_server(
        tmp_path_factory.mktemp("turns"), clock_tick_seconds=0.2, presence_touch_seconds=0.5
    )
    with ThreadPoolExecutor(1) as pool:
        live = pool.submit(manager.__enter__).result()
    try:
        yield live
    finally:
        with ThreadPoolExecutor(1) as pool:
            pool.submit(manager.__exit__, None, None, None).result()


@pytest.fixture
def api(turns_server: LiveServer) -> Iterator[httpx.Client]:
    yield from api_client(turns_server)


@pytest.fixture
def contexts(browser: Any, turns_server: LiveServer) -> Iterator[Any]:
    yield from context_factory(browser, turns_server)


def player(api: httpx.Client, name: str) -> dict[str, str]:
    response = api.post("/players", json={"name": name})
    response.raise_for_status()
    return dict(response.json())


def auth(who: dict[str, str]) -> dict[str, str]:
    return {"Authorization": f"Bearer {who['token']}"}


def pick_table(
    api: httpx.Client,
    owner: dict[str, str],
    *,
    others: tuple[dict[str, str], ...] = (),
    bots: int = 0,
    time_control: dict[str, Any] | None = None,
) -> str:
    """A running two-seat Pick table: owner at seat 0, then ``others``, then bots."""
    body: dict[str, Any] = {"game": "pick", "seats": 2, "options": {}}
    if time_control is not None:
        body["time_control"] = time_control
    created = api.post("/tables", json=body, headers=auth(owner))
    created.raise_for_status()
    table_id = str(created.json()["id"])
    for other in others:
        api.post(f"/tables/{table_id}/join", headers=auth(other)).raise_for_status()
    for _ in range(bots):
        api.post(f"/tables/{table_id}/bots", json={}, headers=auth(owner)).raise_for_status()
    api.post(f"/tables/{table_id}/start", headers=auth(owner)).raise_for_status()
    return table_id


def state(api: httpx.Client, table_id: str, who: dict[str, str]) -> dict[str, Any]:
    response = api.get(f"/tables/{table_id}/state", headers=auth(who))
    response.raise_for_status()
    return dict(response.json())


def test_a_player_takes_a_move_back_and_the_other_sees_it_in_the_log(
    contexts: Any, api: httpx.Client
) -> None:
    ana = player(api, "Ana")
    ben = player(api, "Ben")
    table_id = pick_table(api, ana, others=(ben,))
    first = state(api, table_id, ana)["to_act"][0]
    mover, other = (ana, ben) if first == 0 else (ben, ana)
    mover_page = contexts(player=mover).new_page()
    mover_page.goto(f"/tables/{table_id}")
    other_page = contexts(player=other, locale="es-ES").new_page()
    other_page.goto(f"/tables/{table_id}")
    for page in (mover_page, other_page):
        expect(page.locator("#conn")).to_have_attribute("data-conn", "open")
    expect(mover_page.locator("body")).to_have_attribute("data-turn", "me")
    expect(mover_page.locator(UNDO)).to_have_count(0)
    before = state(api, table_id, mover)

    # Passing reveals nothing: the page offers to take it back right after.
    mover_page.click(PASS)
    expect(mover_page.locator("body")).to_have_attribute("data-turn", "others")
    expect(mover_page.locator(UNDO)).to_have_text(re.compile("Take back"))
    shot(mover_page, "turns-undo.png", full_page=True)
    expect(other_page.locator("body")).to_have_attribute("data-turn", "me")
    expect(other_page.locator(UNDO)).to_have_count(0)
    # A reload (a reconnect) still offers it: the state says so, not the page's memory.
    mover_page.reload()
    expect(mover_page.locator(UNDO)).to_have_text(re.compile("Take back"))
    mover_page.click(UNDO)

    # The board is back where it was (a new version), the pass is on offer again.
    expect(mover_page.locator("body")).to_have_attribute("data-turn", "me")
    expect(mover_page.locator(PASS)).to_be_visible()
    expect(mover_page.locator(UNDO)).to_have_count(0)
    after = state(api, table_id, mover)
    assert after["view"] == before["view"]
    assert after["version"] == before["version"] + 2
    expect(other_page.locator("body")).to_have_attribute("data-turn", "others")
    expect(other_page.locator("#log-list li.log-action_undone")).to_have_text(
        f"{mover['name']} deshizo su última jugada."
    )
    expect(mover_page.locator("#log-list li.log-action_undone")).to_have_text(
        f"{mover['name']} took back their last move."
    )
    # The generic board's log lines are the server's (in each page's language).
    expect(other_page.locator("#log-list")).to_contain_text(f"El asiento {first + 1} pasa.")

    # Taking a token draws a secret card: the answer says it is not undoable, so the page
    # offers no take-back (and the server would refuse one, with its reason).
    mover_page.click(TAKE_ONE)
    expect(mover_page.locator("body")).to_have_attribute("data-turn", "others")
    expect(mover_page.locator(UNDO)).to_have_count(0)
    taken = state(api, table_id, mover)
    assert taken["view"]["pile"] == before["view"]["pile"] - 1
    r = api.post(
        f"/tables/{table_id}/undo", json={"version": taken["version"]}, headers=auth(mover)
    )
    assert r.status_code == 409 and "revealed hidden information" in r.json()["error"]["message"]
    expect(mover_page.locator(UNDO)).to_have_count(0)


def test_a_real_time_clock_counts_down_and_a_bot_moves_when_it_runs_out(
    contexts: Any, api: httpx.Client
) -> None:
    ana = player(api, "Ana")
    # The lobby form: a real-time clock with its smallest bank (1 minute), no increment.
    page = contexts(player=ana).new_page()
    page.goto("/")
    page.select_option("#create-game", "pick")
    page.fill("#create-seats", "2")
    expect(page.locator("#tc-bank")).to_be_hidden()
    page.select_option("#tc-clock", "realtime")
    page.fill("#tc-bank", "1")
    page.fill("#tc-increment", "0")
    expect(page.locator("#tc-grace")).to_have_value("2")
    shot(page.locator("#create"), "turns-create-form.png")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r"/tables/[^/]+$"))
    table_id = page.url.rstrip("/").split("/")[-1]
    table = api.get(f"/tables/{table_id}").json()
    assert table["time_control"] == {
        "clock": "realtime",
        "bank_seconds": 60,
        "increment_seconds": 0,
        "move_seconds": 86400,
        "on_timeout": "bot_move",
        "abandon": "vote",
        "grace_seconds": 120,
        "bot_pace": "normal",
        "takeover_level": None,
    }
    page.click("#setup [data-action=add-bot]")
    page.click("#setup [data-action=start]")
    expect(page.locator("#seats .seat-clock")).to_have_count(2)
    running = page.locator("#seats .seat-row[data-seat='0'] .seat-clock.running .clock-value")
    expect(running).to_have_text(re.compile(r"^0[01]:\d\d$"))
    shown = running.inner_text()
    expect(running).not_to_have_text(shown, timeout=3000)  # it counts down by itself
    expect(page.locator("#seats .seat-row[data-seat='0'] .seat-clock")).not_to_have_class(
        re.compile(r"\blow\b")
    )

    # A table with a 2-second bank: the clock runs low, runs out, and a bot moves for Ana.
    quick = pick_table(
        api,
        ana,
        bots=1,
        time_control={"clock": "realtime", "bank_seconds": 2, "increment_seconds": 0},
    )
    page = contexts(player=ana, locale="es-ES").new_page()
    page.goto(f"/tables/{quick}")
    mine = page.locator("#seats .seat-row[data-seat='0'] .seat-clock")
    expect(mine).to_have_class(re.compile(r"\blow\b"))
    shot(page, "turns-clock-low.png", full_page=True)
    expect(page.locator("#log-list li.log-clock_timeout")).to_have_text(
        "A Ana se le acabó el tiempo; un bot hizo la jugada.", timeout=8000
    )
    # The game moved on: a bot took for Ana, the bot seat answered, and Ana's bank
    # restarted at 15 s.
    expect(page.locator("body")).to_have_attribute("data-turn", "me")
    after = state(api, quick, ana)
    assert after["view"]["taken"][0] > 0
    assert after["clock"]["seats"][0]["running"] is True
    expect(mine.locator(".clock-value")).to_have_text(re.compile(r"^00:1[0-5]$"))
    expect(mine).to_have_class(re.compile(r"\brunning\b"))


def test_an_absent_players_seat_goes_to_a_bot_by_vote_and_comes_back(
    contexts: Any, api: httpx.Client
) -> None:
    ana = player(api, "Ana")
    ben = player(api, "Ben")
    # Grace 2 s: long enough that a vote right after Ben leaves is refused, short
    # enough for a browser test.
    table_id = pick_table(
        api, ana, others=(ben,), time_control={"abandon": "vote", "grace_seconds": 2}
    )
    ana_page = contexts(player=ana).new_page()
    ana_page.goto(f"/tables/{table_id}")
    ben_context = contexts(player=ben, locale="es-ES")
    ben_page = ben_context.new_page()
    ben_page.goto(f"/tables/{table_id}")
    ben_row = ana_page.locator("#seats .seat-row[data-seat='1']")
    expect(ben_row.locator(".dot.online")).to_have_count(1)
    expect(ben_row.locator("[data-action=takeover]")).to_have_count(0)
    time.sleep(1.0)  # the clock keeper records Ben as seen

    ben_page.close()
    vote = ben_row.locator("[data-action=takeover]")
    # Issue 35.8: the vote is offered only once it can work. Right after Ben's dot goes
    # grey there is none; it comes when he has been away for the grace as Ana's page saw it.
    expect(ben_row.locator(".dot.offline")).to_have_count(1)
    expect(vote).to_have_count(0)
    expect(vote).to_have_text("Hand to a bot")
    shot(ana_page.locator("#seats"), "turns-vote.png")
    # The server counts from the end of Ben's presence lease (touch + 2 s after the page
    # closed): a vote before then is refused with the seconds left, never "0 s away", and
    # the button comes back when they have passed.
    vote.click()
    refusal = ana_page.locator(".toast-error")
    expect(ben_row.locator("[data-testid=taken-over]").or_(refusal).first).to_be_visible()
    if refusal.count():
        expect(refusal.last).to_contain_text(
            re.compile(r"a bot can take the seat in \d+ seconds?\.")
        )
        assert not re.search(r"(?<!\d)0 s\b", refusal.last.inner_text())
        expect(vote).to_have_count(0)
        vote.click()
    expect(ben_row.locator("[data-testid=taken-over]")).to_contain_text(
        "bot (normal) playing for Ben"
    )
    expect(ben_row.locator("[data-action=takeover]")).to_have_count(0)
    # The bot plays Ben's turns: it is Ana's turn once the bot is through.
    expect(ana_page.locator("body")).to_have_attribute("data-turn", "me")

    # Ben comes back: a banner, no moves on his board until he takes the seat back.
    ben_page = ben_context.new_page()
    ben_page.goto(f"/tables/{table_id}")
    banner = ben_page.locator("#takeover-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Un bot está jugando en tu asiento")
    shot(ben_page, "turns-taken-over.png", full_page=True)
    expect(ben_page.locator("#seats .seat-row.mine [data-testid=taken-over]")).to_contain_text(
        "un bot (normal) juega por Ben"
    )
    ana_page.click(TAKE_ONE)
    expect(ana_page.locator("body")).to_have_attribute("data-turn", "me")  # the bot answered
    expect(ben_page.locator("#board .action-buttons button")).to_have_count(0)
    banner.locator("[data-action=take-back]").click()
    expect(banner).to_be_hidden()
    expect(
        ana_page.locator("#seats .seat-row[data-seat='1'] [data-testid=taken-over]")
    ).to_have_count(0)
    expect(ben_page.locator("#seats .seat-row.mine [data-testid=taken-over]")).to_have_count(0)

    # Ben plays again: Ana moves, and Ben answers by himself.
    version = state(api, table_id, ana)["version"]
    ana_page.click(TAKE_ONE)
    expect(ben_page.locator("body")).to_have_attribute("data-turn", "me")
    ben_page.click(TAKE_ONE)
    expect(ben_page.locator("body")).to_have_attribute("data-turn", "others")
    expect(ana_page.locator("body")).to_have_attribute("data-turn", "me")
    assert state(api, table_id, ana)["version"] == version + 2
    expect(ben_page.locator(".toast-error")).to_have_count(0)
