"""Issue 18.5: refusals carry what a client needs to word them in its own language.

The envelope keeps ``code`` and ``message`` and adds ``reason`` (a finer code) and ``params``
(the values the refusal names), REST and WebSocket alike (API-EXTENSIONS.md "Errors in the
client's language").
"""

from __future__ import annotations

from typing import Any

import httpx

from tests.support.client import acting, make_table, new_player
from tests.support.live import LiveServer
from tests.support.wsclient import Socket


def _error(r: httpx.Response, status: int) -> dict[str, Any]:
    assert r.status_code == status, r.text
    error: dict[str, Any] = r.json()["error"]
    assert error["message"]  # the English sentence stays, for developers and logs
    return error


def test_refusals_name_their_reason_and_params(live: LiveServer, http: httpx.Client) -> None:
    ana, ben, cid = (new_player(http, n) for n in ("Ana", "Ben", "Cid"))
    # A seat count out of range, and options a game refuses: the numbers a sentence needs.
    error = _error(ana.post("/api/v1/tables", {"game": "luz", "seats": 7}), 422)
    assert error["code"] == "validation_error" and error["reason"] == "seat_count"
    assert error["params"] == {"min": 3, "max": 5, "seats": 7, "field": "seats"}
    body = {"game": "mine", "seats": 6, "options": {"dummy": True}}
    error = _error(ana.post("/api/v1/tables", body), 422)
    assert (error["reason"], error["params"]["max"], error["params"]["seats"]) == (
        "mine.dummy_seats",
        5,
        6,
    )
    # A pydantic error is folded into one of a few reasons, naming the value's path.
    body = {"game": "mine", "seats": 3, "options": {"first_player": "first"}}
    error = _error(ana.post("/api/v1/tables", body), 422)
    assert error["reason"] == "not_a_choice"
    assert error["params"]["field"].startswith("options.first_player")
    error = _error(http.post("/api/v1/players", json={"name": ""}), 422)
    assert error["reason"] == "too_short" and error["params"]["field"] == "name"
    # The rules: a card played while everybody bets names the rule (and the phase).
    tid = make_table(ana, "luz", 3)["id"]
    for p in (ben, cid):
        assert p.post(f"/api/v1/tables/{tid}/join").status_code == 200
    assert ana.post(f"/api/v1/tables/{tid}/start").status_code == 200
    p, state = acting([ana, ben, cid], tid)
    play = {"type": "play_card", "slot": 0}
    error = _error(p.act(tid, state["version"], play), 422)
    assert (error["code"], error["reason"]) == ("illegal_action", "luz.phase_betting")
    # A bet is final: the undo names the rule (§5.5), over REST and over the socket.
    bet = next(a for a in state["legal_actions"] if a["type"] == "place_bet")
    assert p.act(tid, state["version"], bet).status_code == 200
    r = p.post(f"/api/v1/tables/{tid}/undo", {"version": state["version"] + 1})
    refused = _error(r, 409)
    assert refused["reason"] == "luz.bet_final" and "§5.5" in refused["message"]
    assert "hidden" not in refused["message"]
    socket = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={p.token}")
    try:
        socket.send({"type": "undo", "version": state["version"] + 1, "id": "u"})
        frame = socket.until(lambda f: f.get("type") == "error")
        assert (frame["error"]["code"], frame["error"]["reason"]) == (
            "not_undoable",
            "luz.bet_final",
        )
        socket.send({"type": "action", "version": 0, "action": bet, "id": "old"})
        frame = socket.until(lambda f: f.get("type") == "error" and f.get("ref") == "old")
        assert frame["error"]["params"] == {"current_version": state["version"] + 1}
    finally:
        socket.close()
    # Scalar details are params too; a code alone needs no reason.
    error = _error(p.act(tid, 0, bet), 409)
    assert "reason" not in error and error["params"] == {
        "current_version": error["current_version"]
    }
