"""Issue 18.5: every picture of a table says whether its seat may take the last move back.

``undoable`` is in the answer to an action, in GET state and in every WebSocket state frame
(on connect, after a reconnect, after a change), for the caller's seat only, and it agrees
with what POST /undo then does, also for a table this instance did not move itself.
"""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.test_turn_features import PASS, _table, _undo
from tests.support.client import new_player
from tests.support.live import LiveServer
from tests.support.wsclient import Socket


def _first_frame(live: LiveServer, tid: str, token: str | None) -> dict[str, Any]:
    """The state frame a socket gets on connect (as after a reconnect)."""
    query = f"?token={token}" if token else ""
    socket = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws{query}")
    try:
        return socket.until(lambda f: f.get("type") == "state")
    finally:
        socket.close()


def test_every_picture_says_whether_its_seat_may_take_back(
    live: LiveServer, http: httpx.Client
) -> None:
    tid, (a, b) = _table([new_player(http, "Ana"), new_player(http, "Ben")])
    start = a.state(tid)
    assert start["undoable"] is False and b.state(tid)["undoable"] is False
    # Ana passes: her answer, her GET state and her socket (a reconnect) say she may take it
    # back; Ben's and a spectator's pictures say no.
    r = a.act(tid, start["version"], PASS, id="pass-1")
    assert r.status_code == 200 and r.json()["undoable"] is True, r.text
    v = r.json()["version"]
    assert a.state(tid)["undoable"] is True
    assert b.state(tid)["undoable"] is False
    assert http.get(f"/api/v1/tables/{tid}/state").json()["undoable"] is False
    assert _first_frame(live, tid, a.token)["undoable"] is True
    assert _first_frame(live, tid, b.token)["undoable"] is False
    # A retry of the same action id answers the same question, asked now.
    again = a.act(tid, start["version"], PASS, id="pass-1")
    assert again.json()["replayed"] is True and again.json()["undoable"] is True
    # A table this instance did not move (restarted, or moved by another instance) is asked
    # afresh: the other seat first, then the mover, whose undo is then accepted.
    live.service().invalidate(tid)
    assert b.state(tid)["undoable"] is False
    assert a.state(tid)["undoable"] is True
    undone = _undo(a, tid, v)
    assert undone.status_code == 200 and undone.json()["undoable"] is False
    assert a.state(tid)["undoable"] is False  # an undo is not taken back
    # A take draws a secret card: never offered, after the action or after a reload.
    r = a.act(tid, v + 1, {"type": "take", "count": 1})
    assert r.status_code == 200 and r.json()["undoable"] is False
    live.service().invalidate(tid)
    assert a.state(tid)["undoable"] is False
    assert _undo(a, tid, v + 2).status_code == 409
    # Once somebody else has acted, the mover is not offered it any more.
    assert b.act(tid, v + 2, PASS).json()["undoable"] is True
    assert a.act(tid, v + 3, PASS).json()["undoable"] is True
    assert b.state(tid)["undoable"] is False
    assert _first_frame(live, tid, b.token)["undoable"] is False
    assert _undo(b, tid, v + 4).status_code == 409
