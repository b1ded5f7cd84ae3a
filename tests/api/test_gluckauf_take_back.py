"""Over the API, Glück Auf takes back what shows nothing hidden (issue 35): keeping nothing
from a draw of five, and the return step that ends the draw. Each answer says
``undoable: true``, the undo is accepted, and the table is back exactly where it was: the
same view, the same seat to act and the same legal actions. A draw itself stays final."""

from __future__ import annotations

from typing import Any

import httpx

from tests.support.client import Player, new_player

API = "/api/v1"


def _acting(players: list[Player], tid: str) -> tuple[Player, dict[str, Any]]:
    for p in players:
        state = p.state(tid)
        if state["legal_actions"]:
            return p, state
    raise AssertionError("nobody can act")


def _same_place(before: dict[str, Any], after: dict[str, Any]) -> None:
    for key in ("view", "to_act", "legal_actions", "seat", "status"):
        assert after[key] == before[key], key


def _take_back(p: Player, tid: str, before: dict[str, Any], action: dict[str, Any]) -> None:
    """Take ``action`` in ``before``, take it back, and find the table as it was."""
    r = p.act(tid, before["version"], action)
    assert r.status_code == 200, r.text
    assert r.json()["undoable"] is True, action
    r = p.post(f"{API}/tables/{tid}/undo", {"version": before["version"] + 1})
    assert r.status_code == 200, r.text
    _same_place(before, r.json())
    _same_place(before, p.state(tid))


def test_keeping_nothing_and_the_last_return_step_can_be_taken_back(http: httpx.Client) -> None:
    ana, ben = new_player(http, "Ana"), new_player(http, "Ben")
    r = ana.post(f"{API}/tables", {"game": "gluckauf", "seats": 2})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    assert ben.post(f"{API}/tables/{tid}/join").is_success
    assert ana.post(f"{API}/tables/{tid}/start").status_code == 200
    players = [ana, ben]
    # The draft (§4 step 8): each takes the first card offered until the place phase.
    while True:
        p, state = _acting(players, tid)
        if state["legal_actions"][0]["type"] != "draft_order":
            break
        assert p.act(tid, state["version"], state["legal_actions"][0]).status_code == 200
    # The first turn draws five tiles: the draw shows them, so it stays final.
    draw = {"type": "place_worker", "space": "FACT-DRAW"}
    assert draw in state["legal_actions"]
    r = p.act(tid, state["version"], draw)
    assert r.status_code == 200 and r.json()["undoable"] is False
    state = p.state(tid)
    keep_nothing = {"type": "keep_item", "item": None}
    assert keep_nothing in state["legal_actions"]
    _take_back(p, tid, state, keep_nothing)
    assert p.act(tid, state["version"] + 2, keep_nothing).status_code == 200
    # Then the items go back: each step, the one that ends the draw included, can be
    # taken back (no space is empty, so the turn refills nothing).
    ended = False
    while not ended:
        state = p.state(tid)
        action = state["legal_actions"][0]
        assert action["type"] in ("choose_end", "return_item"), action
        r = p.act(tid, state["version"], action)
        assert r.status_code == 200, r.text
        ended = any(e["type"] == "items_returned" for e in r.json()["events"])
        assert r.json()["undoable"] is True
        undone = p.post(f"{API}/tables/{tid}/undo", {"version": state["version"] + 1})
        assert undone.status_code == 200, undone.text
        _same_place(state, undone.json())
        assert p.act(tid, state["version"] + 2, action).status_code == 200
    # The draw is over: the other seat is to act, as after any turn.
    assert p.state(tid)["legal_actions"] == []
