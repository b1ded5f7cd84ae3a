"""A table's bot pace (``time_control.bot_pace``) is waited before every bot action."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from app.tables import pace
from tests.support.client import new_player

TAKE = {"type": "take", "count": 1}


def _play_against_two_bots(http: httpx.Client, bot_pace: str | None) -> tuple[str, list[int]]:
    """Ana and two bots play Pick to the end (Ana takes one token a turn); the versions the
    bots made, in order."""
    ana = new_player(http, "Ana")
    body: dict[str, Any] = {"game": "pick", "seats": 3, "options": {"pile": 9}}
    if bot_pace is not None:
        body["time_control"] = {"bot_pace": bot_pace}
    r = ana.post("/api/v1/tables", body)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    assert r.json()["time_control"]["bot_pace"] == (bot_pace or "normal")
    for _ in range(2):
        assert ana.post(f"/api/v1/tables/{tid}/bots", {}).status_code == 200
    assert ana.post(f"/api/v1/tables/{tid}/start").status_code == 200
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        state = ana.state(tid)
        if state["status"] == "finished":
            break
        if state["legal_actions"]:
            assert ana.act(tid, state["version"], TAKE).status_code == 200
        else:
            time.sleep(0.02)
    else:
        raise AssertionError("the game did not end")
    log = ana.get(f"/api/v1/tables/{tid}/log").json()["events"]
    bot_versions = sorted({e["version"] for e in log if e["actor"] in (1, 2)})
    return tid, bot_versions


@pytest.mark.parametrize(("bot_pace", "seconds"), [("slow", pace.SLOW_SECONDS), (None, 0.0)])
def test_the_tables_bot_pace_is_waited_before_each_bot_action(
    http: httpx.Client, monkeypatch: pytest.MonkeyPatch, bot_pace: str | None, seconds: float
) -> None:
    pauses: list[float] = []

    async def record(delay: float) -> None:  # runs in the server's event loop
        pauses.append(delay)

    monkeypatch.setattr(pace, "pause", record)
    _, bot_versions = _play_against_two_bots(http, bot_pace)
    # The test server's bot delay is 0: "normal" (the default) waits nothing, "slow" its
    # fixed 1.5 s, and that once before every single bot action, not once per bot turn.
    assert len(bot_versions) >= 2
    assert pauses == [seconds] * len(bot_versions)


def test_an_unknown_bot_pace_is_refused(http: httpx.Client) -> None:
    ana = new_player(http, "Ana")
    r = ana.post(
        "/api/v1/tables",
        {"game": "pick", "seats": 2, "time_control": {"bot_pace": "glacial"}},
    )
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "validation_error"


def test_the_paces_keep_their_order_whatever_the_servers_delay() -> None:
    for server in (0.0, 0.2, 0.6, 1.0, 3.0):
        fast, normal, slow = (pace.bot_delay(p, server) for p in ("fast", "normal", "slow"))  # type: ignore[arg-type]
        assert fast <= normal == server <= slow
    assert pace.bot_delay("slow", 0.0) == pace.SLOW_SECONDS
