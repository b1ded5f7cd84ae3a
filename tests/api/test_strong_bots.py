"""A strong bot plays at a real table, and its search runs in the thinking pool's processes,
never in the server's own."""

from __future__ import annotations

import os
from typing import Any

import httpx

from tests.support.client import new_player
from tests.support.live import LiveServer
from tests.support.waiting import wait_until


def test_a_strong_bot_plays_from_the_thinking_pool(http: httpx.Client, live: LiveServer) -> None:
    ana = new_player(http, "Ana")
    r = ana.post("/api/v1/tables", {"game": "luz", "seats": 3})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    assert ana.post(f"/api/v1/tables/{tid}/bots", {"level": "strong"}).status_code == 200
    assert ana.post(f"/api/v1/tables/{tid}/bots", {"level": "normal"}).status_code == 200
    assert ana.post(f"/api/v1/tables/{tid}/start").status_code == 200
    bot = 1
    pool = live.service().bots.thinking

    def bot_moved_three_times() -> bool:
        state = ana.state(tid)
        if state["legal_actions"]:
            ana.act(tid, state["version"], state["legal_actions"][0])
        events = http.get(f"/api/v1/tables/{tid}/log").json()["events"]
        return state["status"] == "finished" or (
            len({e["version"] for e in events if e["actor"] == bot}) >= 3
        )

    wait_until(bot_moved_three_times, 60, every=0.05)
    seat: dict[str, Any] = http.get(f"/api/v1/tables/{tid}").json()["seats"][bot]
    assert seat["bot"] is True and seat["bot_level"] == "strong"
    assert tid in pool.served
    workers = set(pool._executor._processes) if pool._executor is not None else set()
    assert workers and os.getpid() not in workers
