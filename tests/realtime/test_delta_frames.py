"""Opt-in delta frames (?delta=1): each state frame's patch rebuilds exactly the full view."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import jsonpatch

from tests.support.client import make_table, new_player
from tests.support.live import LiveServer
from tests.support.wsclient import Socket


def _apply(view: Any, frame: dict[str, Any]) -> Any:
    if "view_patch" in frame:
        return jsonpatch.apply_patch(view, frame["view_patch"])
    return frame["view"]


def test_delta_frames_rebuild_every_view_of_a_whole_game(
    live: LiveServer, http: httpx.Client
) -> None:
    ana = new_player(http, "Ana")
    tid = make_table(ana, "luz", 4)["id"]
    for _ in range(3):
        assert ana.post(f"/api/v1/tables/{tid}/bots", {"level": "random"}).status_code == 200
    assert ana.post(f"/api/v1/tables/{tid}/start").status_code == 200
    base = f"{live.ws_url}/api/v1/tables/{tid}/ws"
    full = Socket(f"{base}?token={ana.token}")
    delta = Socket(f"{base}?token={ana.token}&delta=1")
    watcher = Socket(f"{base}?delta=true")  # a spectator may use it too
    rng = random.Random(5)
    try:
        version = 0
        for _ in range(400):
            state = ana.state(tid)
            if state["status"] == "finished":
                break
            if state["legal_actions"]:
                action = rng.choice(state["legal_actions"])
                r = ana.act(tid, state["version"], action)
                assert r.status_code in (200, 409), r.text
            version = state["version"]
        final = ana.state(tid)
        assert final["status"] == "finished"
        for sock, seat in ((delta, 0), (watcher, None)):
            sock.state_at(final["version"])
            view: Any = None
            patched = 0
            for frame in sock.frames:
                if frame["type"] != "state":
                    continue
                if "view_patch" in frame:
                    patched += 1
                    assert frame["base_version"] < frame["version"]
                view = _apply(view, frame)
            assert patched > 10
            expected = (
                final["view"]
                if seat == 0
                else http.get(f"/api/v1/tables/{tid}/state").json()["view"]
            )
            assert view == expected
        # Every version the delta socket saw matches the full socket's view of it.
        full.state_at(final["version"])
        by_version = {f["version"]: f["view"] for f in full.frames if f["type"] == "state"}
        view = None
        for frame in delta.frames:
            if frame["type"] == "state":
                view = _apply(view, frame)
                if frame["version"] in by_version:
                    assert view == by_version[frame["version"]]
        sizes = [len(json.dumps(f)) for f in delta.frames if f.get("view_patch") is not None]
        full_sizes = [len(json.dumps(f)) for f in full.frames if f["type"] == "state"]
        assert sum(sizes) / len(sizes) < sum(full_sizes) / len(full_sizes)
        assert version > 0
    finally:
        for sock in (full, delta, watcher):
            sock.close()


def test_a_sync_answers_a_full_view_again(live: LiveServer, http: httpx.Client) -> None:
    ana = new_player(http, "Ana")
    tid = make_table(ana, "pick", 2, {"pile": 20})["id"]
    ana.post(f"/api/v1/tables/{tid}/bots", {"level": "random"})
    ana.post(f"/api/v1/tables/{tid}/start")
    sock = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={ana.token}&delta=1")
    try:
        first = sock.state_at(1)
        assert "view" in first and "view_patch" not in first
        sock.send({"type": "sync"})
        again = sock.until(lambda f: f["type"] == "state")
        assert "view" in again and "view_patch" not in again
    finally:
        sock.close()
