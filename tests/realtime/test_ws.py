"""The table WebSocket: per-seat views, sync, actions, errors, limits."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.support.client import Player, make_table, new_player
from tests.support.live import LiveServer
from tests.support.wsclient import Socket


def _table(http: httpx.Client, n: int = 2, **options: Any) -> tuple[list[Player], str]:
    players = [new_player(http, f"P{i}") for i in range(n)]
    tid = make_table(players[0], "pick", n, options)["id"]
    for p in players[1:]:
        p.post(f"/api/v1/tables/{tid}/join")
    players[0].post(f"/api/v1/tables/{tid}/start")
    return players, tid


def _socket(live: LiveServer, tid: str, player: Player | None = None, **params: Any) -> Socket:
    if player is not None:
        params = {"token": player.token, **params}
    q = "&".join(f"{k}={v}" for k, v in params.items())
    return Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws" + (f"?{q}" if q else ""))


def _first_state(sock: Socket) -> dict[str, Any]:
    return sock.until(lambda f: f["type"] == "state")


def test_connect_sends_table_and_own_state(http: httpx.Client, live: LiveServer) -> None:
    (a, _b), tid = _table(http)
    sock = _socket(live, tid, a)
    table = sock.until(lambda f: f["type"] == "table")
    assert table["table"]["id"] == tid
    state = _first_state(sock)
    assert state["seat"] == 0 and state["version"] == 1 and state["events"] == []
    assert state["view"]["my_bonuses"] == []
    spectator = _socket(live, tid)
    s = _first_state(spectator)
    assert s["seat"] is None and s["view"]["my_bonuses"] is None and s["legal_actions"] == []
    sock.close()
    spectator.close()


def test_two_players_and_a_spectator_stay_in_sync_through_a_game(
    http: httpx.Client, live: LiveServer
) -> None:
    (a, b), tid = _table(http, pile=20)
    socks = {0: _socket(live, tid, a), 1: _socket(live, tid, b)}
    spectator = _socket(live, tid)
    current = {seat: _first_state(s) for seat, s in socks.items()}
    _first_state(spectator)
    version = 1
    while True:
        mover = next(seat for seat, st in current.items() if st["legal_actions"])
        action = current[mover]["legal_actions"][version % len(current[mover]["legal_actions"])]
        socks[mover].send(
            {"type": "action", "version": version, "action": action, "id": f"a{version}"}
        )
        version += 1
        current = {seat: s.state_at(version) for seat, s in socks.items()}
        seen = spectator.state_at(version)
        assert {st["version"] for st in current.values()} == {version} == {seen["version"]}
        views = [st["view"] for st in current.values()]
        assert views[0]["pile"] == views[1]["pile"] == seen["view"]["pile"]
        if seen["status"] == "finished":
            break
    assert current[0]["result"] == current[1]["result"] == seen["result"] is not None
    for frame in spectator.frames:
        if frame["type"] == "state":
            assert all(e["type"] != "bonus_drawn" for e in frame["events"])
            if frame["status"] != "finished":
                assert frame["view"]["my_bonuses"] is None and frame["view"]["all_bonuses"] is None
    own = [
        e
        for f in socks[0].frames
        if f["type"] == "state"
        for e in f["events"]
        if e["type"] == "bonus_drawn"
    ]
    assert own and all(e["seat"] == 0 for e in own)
    for s in (*socks.values(), spectator):
        s.close()


def test_action_errors_come_back_with_ref_and_socket_stays_open(
    http: httpx.Client, live: LiveServer
) -> None:
    (a, b), tid = _table(http)
    sa, sb = _socket(live, tid, a), _socket(live, tid, b)
    state_a, _state_b = _first_state(sa), _first_state(sb)
    mover, waiter = (sa, sb) if state_a["legal_actions"] else (sb, sa)
    waiter.send(
        {"type": "action", "version": 1, "action": {"type": "take", "count": 1}, "id": "w1"}
    )
    err = waiter.until(lambda f: f["type"] == "error")
    assert err["error"]["code"] == "not_your_turn" and err["ref"] == "w1"
    mover.send({"type": "action", "version": 7, "action": {"type": "take", "count": 1}, "id": "m1"})
    err = mover.until(lambda f: f["type"] == "error")
    assert (
        err["error"]["code"] == "stale_version"
        and err["error"]["current_version"] == 1
        and err["ref"] == "m1"
    )
    mover.send({"type": "action", "version": 1, "action": {"type": "take", "count": 5}, "id": "m2"})
    assert mover.until(lambda f: f["type"] == "error")["error"]["code"] == "illegal_action"
    for junk in (
        "{nope",
        "[]",
        json.dumps({"type": "dance"}),
        json.dumps({"type": "action"}),
        "\u0000",
    ):
        mover.send(junk)
        assert mover.until(lambda f: f["type"] == "error")["error"]["code"] == "validation_error"
    mover.send({"type": "ping"})
    assert mover.until(lambda f: f["type"] in ("pong",))["type"] == "pong"
    mover.send({"type": "action", "version": 1, "action": {"type": "take", "count": 1}, "id": "ok"})
    done = mover.until(lambda f: f["type"] == "state" and f.get("ref") == "ok")
    assert done["version"] == 2
    sa.close()
    sb.close()


def test_spectator_cannot_act_and_can_authenticate_later(
    http: httpx.Client, live: LiveServer
) -> None:
    (a, _b), tid = _table(http)
    sock = _socket(live, tid)
    _first_state(sock)
    sock.send({"type": "action", "version": 1, "action": {"type": "take", "count": 1}})
    assert sock.until(lambda f: f["type"] == "error")["error"]["code"] == "unauthorized"
    sock.send({"type": "auth", "token": a.token})
    assert sock.until(lambda f: f["type"] == "state")["seat"] == 0
    sock.close()


def test_sync_returns_missed_events_in_order(http: httpx.Client, live: LiveServer) -> None:
    (a, b), tid = _table(http, pile=30)
    for _ in range(4):
        p = a if a.state(tid)["legal_actions"] else b
        s = p.state(tid)
        assert p.act(tid, s["version"], {"type": "take", "count": 1}).status_code == 200
    sock = _socket(live, tid, a, since=1)
    state = _first_state(sock)
    assert state["version"] == 5
    versions = [e["version"] for e in state["events"]]
    assert versions == sorted(versions) and set(versions) == {2, 3, 4, 5}
    sock.send({"type": "sync", "version": 3})
    synced = sock.until(
        lambda f: f["type"] == "state" and f["events"] and f["events"][0]["version"] == 4
    )
    assert {e["version"] for e in synced["events"]} == {4, 5}
    sock.close()


def test_bad_token_and_unknown_table_close_the_socket(http: httpx.Client, live: LiveServer) -> None:
    (_a, _b), tid = _table(http)
    sock = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token=bogus")
    assert sock.recv()["error"]["code"] == "unauthorized"
    with pytest.raises(ConnectionClosed) as closed:
        sock.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    sock = Socket(f"{live.ws_url}/api/v1/tables/nope/ws")
    assert sock.recv()["error"]["code"] == "not_found"
    with pytest.raises(ConnectionClosed) as closed:
        sock.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404


def _still_served(sock: Socket) -> None:
    """A bystander's socket answers as before: a sync brings its state back."""
    sock.send({"type": "sync"})
    assert _first_state(sock)["version"] >= 1


def test_oversized_frame_closes_the_socket(http: httpx.Client, live: LiveServer) -> None:
    (a, b), tid = _table(http)
    sock = _socket(live, tid, a)
    bystander = _socket(live, tid, b)
    _first_state(sock)
    _first_state(bystander)
    sock.send("x" * (70 * 1024))
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(5):
            sock.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert closed.value.rcvd.reason  # the close says why
    _still_served(bystander)
    bystander.close()


def test_flooding_is_rate_limited_then_closed(http: httpx.Client, live: LiveServer) -> None:
    (a, b), tid = _table(http)
    sock = _socket(live, tid, a)
    bystander = _socket(live, tid, b)
    _first_state(sock)
    _first_state(bystander)
    codes: list[str] = []
    with pytest.raises(ConnectionClosed) as closed:
        # The server may close while pings are still going out; what it said before the
        # close is still read below.
        with contextlib.suppress(ConnectionClosed):
            for _ in range(400):
                sock.send({"type": "ping"})
        while True:
            frame = sock.recv()
            if frame["type"] == "error":
                codes.append(frame["error"]["code"])
    assert "rate_limited" in codes
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    assert closed.value.rcvd.reason
    _still_served(bystander)
    bystander.close()


def test_presence_shows_in_the_table(http: httpx.Client, live: LiveServer) -> None:
    (_a, b), tid = _table(http)
    sock = _socket(live, tid, b)
    table = sock.until(lambda f: f["type"] == "table" and f["table"]["seats"][1]["connected"])
    assert table["table"]["seats"][0]["connected"] is False
    assert http.get(f"/api/v1/tables/{tid}").json()["seats"][1]["connected"] is True
    sock.close()


def test_asyncapi_document_describes_every_frame(http: httpx.Client) -> None:
    doc = http.get("/asyncapi.json").json()
    assert doc["asyncapi"].startswith("2.")
    channel = doc["channels"]["/api/v1/tables/{table_id}/ws"]
    sent = {m["$ref"].rsplit("/", 1)[1] for m in channel["publish"]["message"]["oneOf"]}
    received = {m["$ref"].rsplit("/", 1)[1] for m in channel["subscribe"]["message"]["oneOf"]}
    assert sent == {
        "client_action",
        "client_undo",
        "client_sync",
        "client_ping",
        "client_auth",
        "client_chat",
    }
    assert received == {
        "server_state",
        "server_table",
        "server_error",
        "server_pong",
        "server_chat",
    }
    assert "ActionFrame" in doc["components"]["schemas"]
    messages = doc["components"]["messages"]
    assert set(messages) == sent | received
    for key, message in messages.items():
        assert message["summary"].strip(), f"{key} has no summary"
        assert message["payload"]["$ref"].rsplit("/", 1)[1] in doc["components"]["schemas"]
    query = channel["bindings"]["ws"]["query"]["properties"]
    assert {"token", "since", "lang", "delta"} <= set(query)
    assert all(query[name]["description"] for name in query)
    assert set(query["lang"]["enum"]) == {"es", "en"}
    assert "1" in query["delta"]["enum"]
    assert "/asyncapi.json" in http.get("/openapi.json").json()["info"]["description"]


def test_sockets_open_before_the_start_get_the_setup_events_each_as_its_seat_may(
    http: httpx.Client, live: LiveServer
) -> None:
    """Luz deals at the start: the version-1 frame carries deal 1's events, each seat's
    own hand shown only to the others (a seat never sees its own cards' values)."""
    players = [new_player(http, f"L{i}") for i in range(3)]
    tid = make_table(players[0], "luz", 3)["id"]
    for p in players[1:]:
        assert p.post(f"/api/v1/tables/{tid}/join").status_code == 200
    socks = [_socket(live, tid, p) for p in players]
    spectator = _socket(live, tid)
    for sock in [*socks, spectator]:
        assert _first_state(sock)["version"] == 0
    assert players[0].post(f"/api/v1/tables/{tid}/start").status_code == 200
    for seat, sock in enumerate(socks):
        events = sock.state_at(1)["events"]
        assert events[0]["type"] == "deal_started" and events[0]["deal"] == 1
        assert all(e["version"] == 1 and e["actor"] is None for e in events)
        shown = {e["seat"] for e in events if e["type"] == "hand_shown"}
        assert shown == {0, 1, 2} - {seat}
    public = spectator.state_at(1)["events"]
    assert [e["type"] for e in public] == ["deal_started", "hands_dealt"]
    # Nothing to take back at the start: the setup is nobody's action.
    r = players[0].post(f"/api/v1/tables/{tid}/undo", {"version": 1})
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_undoable"
    for sock in [*socks, spectator]:
        sock.close()
