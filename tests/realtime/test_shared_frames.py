"""A state frame is encoded once for every socket that gets the same one: the sockets of one
seat, or everybody watching, at the same version since the same one and in the same
language. Frames that differ (another seat, language, delta mode, running clocks) are not
shared."""

from __future__ import annotations

import json
from typing import Any

import httpx

from tests.support.client import acting, make_table, new_player
from tests.support.live import LiveServer
from tests.support.wsclient import Socket


def _raw_state(sock: Socket, version: int) -> str:
    while True:
        raw = sock.conn.recv(timeout=10)
        assert isinstance(raw, str)
        frame: dict[str, Any] = json.loads(raw)
        if frame["type"] == "state" and frame["version"] >= version:
            return raw


def test_watchers_and_a_seats_sockets_share_one_encoding(
    live: LiveServer, http: httpx.Client
) -> None:
    a, b = new_player(http, "A"), new_player(http, "B")
    tid = make_table(a, "pick", 2)["id"]
    b.post(f"/api/v1/tables/{tid}/join")
    assert a.post(f"/api/v1/tables/{tid}/start").status_code == 200
    base = f"{live.ws_url}/api/v1/tables/{tid}/ws"
    watchers = [Socket(base), Socket(base), Socket(f"{base}?lang=es")]
    mover, state = acting([a, b], tid)
    tabs = [Socket(f"{base}?token={mover.token}") for _ in range(2)]
    delta = Socket(f"{base}?token={mover.token}&delta=1")
    sockets = [*watchers, *tabs, delta]
    try:
        for sock in sockets:
            _raw_state(sock, state["version"])
        assert mover.act(tid, state["version"], {"type": "take", "count": 1}).status_code == 200
        version = state["version"] + 1
        watcher, twin, spanish = (_raw_state(s, version) for s in watchers)
        tab, other_tab = (_raw_state(s, version) for s in tabs)
        patched = json.loads(_raw_state(delta, version))
        assert watcher == twin and tab == other_tab
        assert len({watcher, spanish, tab}) == 3
        assert json.loads(spanish)["events"][0]["text"]
        assert "text" not in json.loads(watcher)["events"][0]
        assert "view_patch" in patched and "view" not in patched
        # The shared frames say what each reader may see, as the REST state does.
        assert json.loads(watcher)["view"] == http.get(f"/api/v1/tables/{tid}/state").json()["view"]
        assert json.loads(tab)["view"] == mover.state(tid)["view"]
        snap = live.service()._cache[tid]
        seats = sorted((k[0] is None, k[2] or "") for k in snap.renders.frames)
        assert seats == [(False, ""), (True, ""), (True, "es")]
    finally:
        for sock in sockets:
            sock.close()
