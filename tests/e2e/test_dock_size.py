"""The docked decision on a laptop (issue 35.6): at 1366×768 the prompt docked at the bottom of
the screen ([data-decision], static/js/decision.js) covers at most a quarter of the viewport's
height, what does not fit scrolling inside it, and the prompt and a legal target stay in view
(``assert_in_view``), at each of several decisions of every game, solo Ginkgopolis included.

The page watches as Ana; her moves are random legal actions sent through the API, so the page
meets each new decision as a player whose move was sent from another tab would.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.e2e.conftest import auth, make_player
from tests.e2e.helpers import LAPTOP, assert_in_view, context_factory, games_server
from tests.e2e.test_phone_pages import table_with_bots

DECISIONS = 8
QUARTER = 0.25

# (game, seats): every game, with Ginkgopolis alone against Hal as well.
TABLES = [("gluckauf", 3), ("mine", 3), ("luz", 4), ("ginkgopolis", 3), ("ginkgopolis", 1)]

_DOCK = """() => {
  const el = document.querySelector('#board [data-decision]');
  const box = el.getBoundingClientRect();
  return { height: box.height, top: box.top, bottom: box.bottom, scroll: el.scrollHeight,
           position: getComputedStyle(el).position, overflow: getComputedStyle(el).overflowY };
}"""


_AT_MY_DECISION = """(version) => document.body.dataset.turn === 'me'
  && document.body.dataset.dock === 'on' && Number(document.body.dataset.version) >= version
  && document.querySelector('#board [data-decision]') !== null"""


@pytest.fixture(scope="module")
def dk_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    yield from games_server(tmp_path_factory, ("gluckauf", "mine", "luz", "ginkgopolis"))


@pytest.fixture
def dk_context(browser: Any, dk_server: Any) -> Iterator[Any]:
    yield from context_factory(browser, dk_server)


def _my_state(api: httpx.Client, player: dict[str, str], tid: str) -> dict[str, Any]:
    """The table's state once it is the player's decision (or the end)."""
    for _ in range(1500):
        state: dict[str, Any] = api.get(f"/tables/{tid}/state", headers=auth(player)).json()
        if state["status"] == "finished" or state["legal_actions"]:
            return state
        time.sleep(0.02)
    raise AssertionError(f"table {tid}: no decision for the player")


@pytest.mark.parametrize(("game", "seats"), TABLES, ids=[f"{g}-{n}" for g, n in TABLES])
def test_the_dock_takes_at_most_a_quarter_of_a_laptop_screen(
    dk_server: Any, dk_context: Any, game: str, seats: int
) -> None:
    with httpx.Client(base_url=dk_server.url + "/api/v1", timeout=30) as api:
        ana = make_player(api, "Ana")
        tid = table_with_bots(api, ana, game, seats)
        page = dk_context(player=ana, viewport=LAPTOP).new_page()
        page.goto(f"/tables/{tid}")
        rng = random.Random(tid)
        limit = QUARTER * LAPTOP["height"]
        seen: list[str] = []
        for _ in range(DECISIONS):
            state = _my_state(api, ana, tid)
            if state["status"] == "finished":
                break
            # The others may move on meanwhile (a simultaneous choice): this version or a later.
            page.wait_for_function(_AT_MY_DECISION, arg=state["version"])
            dock = page.evaluate(_DOCK)
            kinds = sorted({str(a.get("type")) for a in state["legal_actions"]})
            seen.append("/".join(kinds))
            where = f"{game} ({seats} seats), decision {kinds}: {dock}"
            assert dock["position"] == "fixed", where
            assert dock["height"] <= limit + 0.5, where
            # What does not fit scrolls inside the dock.
            if dock["scroll"] > dock["height"] + 1:
                assert dock["overflow"] in ("auto", "scroll"), where
            assert_in_view(page)
            for _attempt in range(5):  # a bot's simultaneous move may make a version stale
                state = _my_state(api, ana, tid)
                if state["status"] == "finished":
                    break
                answer = api.post(
                    f"/tables/{tid}/actions",
                    json={
                        "version": state["version"],
                        "action": rng.choice(state["legal_actions"]),
                    },
                    headers=auth(ana),
                )
                if answer.status_code == 200:
                    break
        assert len(seen) >= 3, seen
