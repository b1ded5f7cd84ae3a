"""Races, forced drops and fuzzed frames: one winner, no gaps, no crash."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support import racing
from tests.support.client import Player, acting, make_table, new_player
from tests.support.live import LiveServer, temporary_server
from tests.support.wsclient import Socket


def _table(http: httpx.Client, pile: int = 30) -> tuple[list[Player], str]:
    players = [new_player(http, "A"), new_player(http, "B")]
    tid = make_table(players[0], "pick", 2, {"pile": pile})["id"]
    players[1].post(f"/api/v1/tables/{tid}/join")
    players[0].post(f"/api/v1/tables/{tid}/start")
    return players, tid


_TAKE = {"type": "take", "count": 1}


def test_racing_clients_with_distinct_ids_exactly_one_wins(
    http: httpx.Client, live: LiveServer
) -> None:
    players, tid = _table(http)
    mover, s = acting(players, tid)
    answers = racing.race(
        live, mover, tid, s["version"], _TAKE, [f"distinct-{i}" for i in range(12)]
    )
    winners = [a for a in answers if "ok" in a]
    losers = [a["error"]["code"] for a in answers if "error" in a]
    assert len(winners) == 1
    assert set(losers) == {"stale_version"} and len(losers) == 11
    versions = [e["version"] for e in http.get(f"/api/v1/tables/{tid}/log").json()["events"]]
    assert sorted(set(versions)) == [s["version"] + 1]


def test_racing_clients_with_one_id_get_the_idempotent_answer(
    http: httpx.Client, live: LiveServer
) -> None:
    players, tid = _table(http)
    mover, s = acting(players, tid)
    answers = racing.race(live, mover, tid, s["version"], _TAKE, ["same-key"] * 10)
    assert all("ok" in a for a in answers), answers
    assert {a["ok"]["version"] for a in answers} == {s["version"] + 1}
    assert mover.state(tid)["version"] == s["version"] + 1


def test_log_versions_are_contiguous_after_many_races(http: httpx.Client, live: LiveServer) -> None:
    players, tid = _table(http, pile=40)
    for round_no in range(5):
        mover, s = acting(players, tid)
        racing.race(
            live, mover, tid, s["version"], _TAKE, [None, f"r{round_no}-a", None, f"r{round_no}-b"]
        )
    events = http.get(f"/api/v1/tables/{tid}/log").json()["events"]
    versions = sorted({e["version"] for e in events})
    assert versions == list(range(2, 2 + len(versions)))
    assert versions[-1] == players[0].state(tid)["version"]


def test_reconnect_after_a_drop_receives_missed_events_in_order(
    http: httpx.Client, live: LiveServer
) -> None:
    players, tid = _table(http)
    sock = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={players[0].token}")
    last = sock.until(lambda f: f["type"] == "state")["version"]
    sock.conn.close_socket()  # a forced drop: no closing handshake
    for _ in range(6):
        mover, s = acting(players, tid)
        mover.act(tid, s["version"], {"type": "take", "count": 1})
    again = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={players[0].token}&since={last}")
    state = again.until(lambda f: f["type"] == "state")
    versions = [e["version"] for e in state["events"]]
    assert versions == sorted(versions) and set(versions) == set(range(last + 1, last + 7))
    assert all(e["type"] != "bonus_drawn" or e["seat"] == 0 for e in state["events"])
    assert "events_complete" not in state
    again.close()


def test_far_behind_client_gets_a_snapshot_instead_of_events(tmp_path: Path) -> None:
    with (
        temporary_server(tmp_path, catch_up_limit=3) as live,
        httpx.Client(base_url=live.url) as http,
    ):
        players, tid = _table(http)
        for _ in range(5):
            mover, s = acting(players, tid)
            mover.act(tid, s["version"], {"type": "take", "count": 1})
        sock = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={players[0].token}&since=1")
        state = sock.until(lambda f: f["type"] == "state")
        assert state["events"] == [] and state["events_complete"] is False
        assert state["version"] == 6 and state["view"]["pile"] == 25
        sock.send({"type": "sync", "version": 4})
        synced = sock.until(lambda f: f["type"] == "state" and bool(f["events"]))
        assert {e["version"] for e in synced["events"]} == {5, 6}
        sock.close()


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
_frames = st.one_of(
    _json.map(json.dumps),
    st.fixed_dictionaries({"type": st.sampled_from(["action", "sync", "ping", "chat", ""])}, optional={
        "version": _json, "action": _json, "id": _json, "token": _json,
    }).map(json.dumps),
    st.text(max_size=200),
)  # fmt: skip


def test_fuzzed_frames_get_answers_and_leave_everyone_connected(tmp_path: Path) -> None:
    # Generous message credits here: this test is about malformed frames, not flooding.
    with (
        temporary_server(tmp_path, ws_messages_per_second=1000, ws_burst=1000) as live,
        httpx.Client(base_url=live.url, timeout=30) as http,
    ):
        _fuzz(live, http)


def _fuzz(live: LiveServer, http: httpx.Client) -> None:
    players, tid = _table(http)
    fuzzer = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={players[0].token}")
    bystander = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={players[1].token}")
    fuzzer.until(lambda f: f["type"] == "state")
    bystander.until(lambda f: f["type"] == "state")
    version_before = players[0].state(tid)["version"]

    @given(frame=_frames)
    @settings(
        max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    def send(frame: str) -> None:
        fuzzer.send(frame)
        try:
            answer = fuzzer.until(lambda f: f["type"] in ("error", "pong", "state"), timeout=10)
        except TimeoutError:
            raise AssertionError(f"no answer to {frame!r}") from None
        assert answer["type"] in ("error", "pong", "state")
        if answer["type"] == "error":
            assert answer["error"]["code"] in {
                "validation_error", "unauthorized", "stale_version", "illegal_action",
                "not_your_turn", "rate_limited",
            }  # fmt: skip

    send()
    # A wrong token in an auth frame is an auth failure: answered, then closed with 4401.
    fuzzer.send({"type": "auth", "token": "not-a-token"})
    assert fuzzer.until(lambda f: f["type"] == "error")["error"]["code"] == "unauthorized"
    fuzzer = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={players[0].token}")
    fuzzer.send({"type": "ping"})
    assert fuzzer.until(lambda f: f["type"] == "pong")
    bystander.send({"type": "ping"})
    assert bystander.until(lambda f: f["type"] == "pong")
    assert http.get("/healthz").status_code == 200
    assert players[0].state(tid)["version"] >= version_before
    fuzzer.close()
    bystander.close()
