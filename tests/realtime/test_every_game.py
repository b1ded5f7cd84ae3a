"""Races, forced drops and fuzzed action frames at a table of every registered game.

tests/realtime/test_robustness.py drives the same guarantees in depth with the test game;
this module checks that they hold whatever the game: its own actions raced over HTTP and
WebSocket, its own (per-seat redacted) events replayed after a drop, and its own action
shapes broken field by field.
"""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.games import REGISTRY
from tests.support import racing
from tests.support.client import Player, acting, make_table, new_player
from tests.support.live import LiveServer
from tests.support.wsclient import Socket

GAMES = sorted(REGISTRY)


def _table(http: httpx.Client, game: str) -> tuple[list[Player], str]:
    """A started table of ``game`` with only human seats (as few as the game allows, ≥ 2)."""
    n = max(2, REGISTRY[game].info.min_players)
    players = [new_player(http, f"{game[:3]}{i}") for i in range(n)]
    tid = make_table(players[0], game, n)["id"]
    for p in players[1:]:
        assert p.post(f"/api/v1/tables/{tid}/join").status_code == 200
    assert players[0].post(f"/api/v1/tables/{tid}/start").status_code == 200
    return players, tid


@pytest.mark.parametrize("game", GAMES)
def test_a_raced_action_is_applied_once(game: str, http: httpx.Client, live: LiveServer) -> None:
    players, tid = _table(http, game)
    mover, s = acting(players, tid)
    start = s["version"]
    ids: list[str | None] = [f"{game}-distinct-{i}" for i in range(8)]
    answers = racing.race(live, mover, tid, s["version"], s["legal_actions"][0], ids)
    assert len([a for a in answers if "ok" in a]) == 1, answers
    assert [a["error"]["code"] for a in answers if "error" in a] == ["stale_version"] * 7

    mover, s = acting(players, tid)
    answers = racing.race(
        live, mover, tid, s["version"], s["legal_actions"][0], [f"{game}-same"] * 6
    )
    assert all("ok" in a for a in answers), answers
    assert {a["ok"]["version"] for a in answers} == {start + 2}

    # Two races, two versions: none skipped, none doubled.
    log = mover.get(f"/api/v1/tables/{tid}/log", params={"since": start}).json()
    assert log["version"] == start + 2
    assert {e["version"] for e in log["events"]} <= {start + 1, start + 2}


@pytest.mark.parametrize("game", GAMES)
def test_a_dropped_seat_gets_exactly_its_missed_events(
    game: str, http: httpx.Client, live: LiveServer
) -> None:
    players, tid = _table(http, game)
    watcher = players[0]
    sock = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={watcher.token}")
    last = sock.until(lambda f: f["type"] == "state")["version"]
    sock.conn.close_socket()  # a forced drop: no closing handshake
    rng = random.Random(game)
    for _ in range(8):
        mover, s = acting(players, tid)
        if s["status"] != "playing":
            break
        assert mover.act(tid, s["version"], rng.choice(s["legal_actions"])).status_code == 200
    now = watcher.state(tid)["version"]
    assert now > last

    again = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={watcher.token}&since={last}")
    state = again.until(lambda f: f["type"] == "state")
    again.close()
    # The seat's own log since the drop, event for event: order, versions and redaction.
    log = watcher.get(f"/api/v1/tables/{tid}/log", params={"since": last}).json()["events"]
    assert state["version"] == now and "events_complete" not in state
    assert state["events"] == log and log
    versions = [e["version"] for e in state["events"]]
    assert versions == sorted(versions) and set(versions) <= set(range(last + 1, now + 1))
    assert state["view"] == watcher.state(tid)["view"]


_junk = st.none() | st.booleans() | st.integers() | st.text(max_size=12) | st.lists(st.integers())


@pytest.mark.parametrize("game", GAMES)
def test_broken_action_frames_are_answered_and_refused_ones_change_nothing(
    game: str, http: httpx.Client, live: LiveServer
) -> None:
    """Each legal action of the game with one field replaced, dropped or added."""
    players, tid = _table(http, game)
    mover, s = acting(players, tid)
    other = next(p for p in players if p is not mover)
    fuzzer = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={mover.token}")
    bystander = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={other.token}")
    fuzzer.until(lambda f: f["type"] == "state")
    bystander.until(lambda f: f["type"] == "state")
    shapes = s["legal_actions"]
    counter = iter(range(10**6))

    @given(
        base=st.sampled_from(shapes),
        change=st.sampled_from(["replace", "drop", "add"]),
        pick=st.integers(0, 10),
        junk=_junk,
    )
    @settings(
        max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    def send(base: dict[str, Any], change: str, pick: int, junk: Any) -> None:
        action = dict(base)
        keys = sorted(action)
        key = keys[pick % len(keys)]
        if change == "replace":
            action[key] = junk
        elif change == "drop" and key != "type":
            del action[key]
        else:
            action[f"extra_{pick}"] = junk
        version = mover.state(tid)["version"]
        ref = f"fz-{next(counter)}"
        fuzzer.send(json.dumps({"type": "action", "version": version, "action": action, "id": ref}))
        try:
            answer = fuzzer.until(lambda f: f.get("ref") == ref, timeout=10)
        except TimeoutError:
            raise AssertionError(f"no answer to {action!r}") from None
        if answer["type"] == "error":
            assert answer["error"]["code"] in {
                "validation_error", "illegal_action", "not_your_turn", "stale_version",
            }, answer  # fmt: skip
            assert mover.state(tid)["version"] == version
        else:
            # A replaced value can happen to be a legal one: then it is applied, once.
            assert answer["type"] == "state" and answer["version"] == version + 1

    send()
    bystander.send({"type": "ping"})
    assert bystander.until(lambda f: f["type"] == "pong")
    fuzzer.close()
    bystander.close()
    assert http.get("/healthz").status_code == 200
