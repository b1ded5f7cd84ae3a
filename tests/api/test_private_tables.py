"""Private means private (issue 17.13).

A private table is readable only by the players seated at it and by whoever holds its invite
code (the ?invite= of its invite link). To anybody else every read path — the table, its state,
log, chat, replay, replay steps, the WebSocket, the owner's player page — answers exactly as for
a table that does not exist (404 not_found, the same message), so even its id is not
confirmed. Only seated players post into a table's chat, over REST and over the socket.

Runs on both databases (the session server of conftest is parametrized by backend).
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.support.client import Player, new_player
from tests.support.live import LiveServer
from tests.support.wsclient import Socket

PICK_SMALL = {"pile": 4, "max_take": 1}


def _private_table(http: httpx.Client) -> tuple[Player, Player, str, str]:
    """A private two-seat table, its owner and a friend seated through the invite code."""
    owner, friend = new_player(http, "Owner"), new_player(http, "Friend")
    r = owner.post(
        "/api/v1/tables", {"game": "pick", "seats": 2, "options": PICK_SMALL, "private": True}
    )
    assert r.status_code == 201, r.text
    tid, code = r.json()["id"], r.json()["invite_code"]
    assert friend.post(f"/api/v1/tables/{tid}/join", {"invite": code}).json() == {"seat": 1}
    return owner, friend, tid, code


def _play_out(players: list[Player], tid: str) -> None:
    assert players[0].post(f"/api/v1/tables/{tid}/start").status_code == 200
    for _ in range(50):
        states = [p.state(tid) for p in players]
        if states[0]["status"] == "finished":
            return
        for p, s in zip(players, states, strict=True):
            if s["legal_actions"]:
                assert p.act(tid, s["version"], s["legal_actions"][0]).status_code == 200
                break
    raise AssertionError("the game did not end")


READ_PATHS = (
    "/api/v1/tables/{tid}",
    "/api/v1/tables/{tid}/state",
    "/api/v1/tables/{tid}/log",
    "/api/v1/tables/{tid}/chat",
    "/api/v1/tables/{tid}/replay",
    "/api/v1/tables/{tid}/replay/steps",
    "/api/v1/tables/{tid}/replay/steps?perspective=0",
)


WRITE_PATHS: tuple[tuple[str, Any], ...] = (
    ("/api/v1/tables/{tid}/actions", {"version": 1, "action": {"type": "take", "count": 1}}),
    ("/api/v1/tables/{tid}/undo", {"version": 1}),
    ("/api/v1/tables/{tid}/leave", None),
    ("/api/v1/tables/{tid}/bots", None),
    ("/api/v1/tables/{tid}/start", None),
    ("/api/v1/tables/{tid}/seats/0/takeover", None),
    ("/api/v1/tables/{tid}/take-back", None),
)


def _same_as_missing(response: httpx.Response, missing: httpx.Response, tid: str) -> None:
    """The answer for the private table is the answer for an unknown id (id substituted)."""
    assert response.status_code == 404, response.text
    assert missing.status_code == 404, missing.text
    body = response.json()
    assert body["error"]["code"] == "not_found"
    assert body == missing.json() | {
        "error": missing.json()["error"]
        | {"message": missing.json()["error"]["message"].replace("no-such-table", tid)}
    }


def _refused_socket(url: str) -> None:
    sock = Socket(url)
    try:
        first = sock.recv()
        assert first["type"] == "error" and first["error"]["code"] == "not_found", first
        with pytest.raises(ConnectionClosed) as closed:
            sock.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
    finally:
        sock.close()


@pytest.mark.parametrize("stage", ["open", "finished"])
def test_every_read_path_of_a_private_table_is_a_404_to_outsiders(
    http: httpx.Client, live: LiveServer, stage: str
) -> None:
    owner, friend, tid, _code = _private_table(http)
    if stage == "finished":
        _play_out([owner, friend], tid)
    owner.post(f"/api/v1/tables/{tid}/chat", {"text": "only for us"})
    stranger = new_player(http, "Stranger")
    for path in READ_PATHS:
        for who in (stranger.auth, {}):  # a signed-in outsider and an anonymous one
            missing = http.get(path.format(tid="no-such-table"), headers=who)
            _same_as_missing(http.get(path.format(tid=tid), headers=who), missing, tid)
            wrong = http.get(path.format(tid=tid), headers=who, params={"invite": "guess"})
            _same_as_missing(wrong, missing, tid)
    # Nor do the writes tell it apart from a missing table (acting, lobby changes, votes).
    for path, body in WRITE_PATHS:
        missing = stranger.post(path.format(tid="no-such-table"), body)
        _same_as_missing(stranger.post(path.format(tid=tid), body), missing, tid)
    # Joining without the code (or with a wrong one, or one that is not ASCII) is no different.
    for body in (None, {"invite": "guess"}, {"invite": "ñandú"}):
        r = stranger.post(f"/api/v1/tables/{tid}/join", body)
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found", r.text
    # Chat: neither read nor written by an outsider.
    r = stranger.post(f"/api/v1/tables/{tid}/chat", {"text": "hello?"})
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    # The WebSocket: the same error frame and close code as an unknown table, with or without
    # a token.
    _refused_socket(f"{live.ws_url}/api/v1/tables/{tid}/ws")
    _refused_socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={stranger.token}")
    _refused_socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?invite=guess")
    # The lobby and the players' pages never name it to others.
    assert tid not in {t["id"] for t in stranger.get("/api/v1/tables").json()}
    for page_of in (owner, friend):
        for who in (stranger.auth, {}):
            page = http.get(f"/api/v1/players/{page_of.id}", headers=who)
            assert page.status_code == 200
            assert tid not in page.text
    # Nothing the outsiders did reached the table: only the owner's line is in its chat.
    chat = owner.get(f"/api/v1/tables/{tid}/chat").json()
    assert [m["text"] for m in chat] == ["only for us"]


def test_seated_players_and_invite_holders_still_read_a_private_table(
    http: httpx.Client, live: LiveServer
) -> None:
    owner, friend, tid, code = _private_table(http)
    guest = new_player(http, "Guest")  # holds the invite link but has not sat down
    owner.post(f"/api/v1/tables/{tid}/chat", {"text": "hola"})
    for path in ("/api/v1/tables/{tid}", "/api/v1/tables/{tid}/state", "/api/v1/tables/{tid}/log"):
        for reader, params in ((owner, {}), (friend, {}), (guest, {"invite": code})):
            r = reader.get(path.format(tid=tid), params=params)
            assert r.status_code == 200, (path, reader.name, r.text)
        assert http.get(path.format(tid=tid), params={"invite": code}).status_code == 200
    assert [m["text"] for m in guest.get(f"/api/v1/tables/{tid}/chat?invite={code}").json()] == [
        "hola"
    ]
    # Seated players see the invite code; an invite holder reads the table without it.
    assert friend.get(f"/api/v1/tables/{tid}").json()["invite_code"] == code
    as_guest = guest.get(f"/api/v1/tables/{tid}", params={"invite": code}).json()
    assert as_guest["id"] == tid and as_guest.get("invite_code") is None
    # The invite holder watches over the socket (a spectator) ...
    sock = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={guest.token}&invite={code}")
    try:
        assert sock.until(lambda f: f["type"] == "state")["seat"] is None
        # ... but may not chat before sitting down: only seated players post.
        sock.send({"type": "chat", "text": "may I?"})
        assert sock.until(lambda f: f["type"] == "error")["error"]["code"] == "not_seated"
        r = guest.post(f"/api/v1/tables/{tid}/chat?invite={code}", {"text": "may I?"})
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_seated"
    finally:
        sock.close()
    # After the game, the seated players (and invite holders) read the replay.
    _play_out([owner, friend], tid)
    for reader, params in ((owner, {}), (friend, {}), (guest, {"invite": code})):
        assert reader.get(f"/api/v1/tables/{tid}/replay", params=params).status_code == 200
        steps = reader.get(f"/api/v1/tables/{tid}/replay/steps", params=params)
        assert steps.status_code == 200 and steps.json()["steps"]
    # Each seated player's own page lists the private game; the other seated player sees it too.
    assert tid in {g["table_id"] for g in owner.get(f"/api/v1/players/{owner.id}").json()["games"]}
    assert tid in {g["table_id"] for g in friend.get(f"/api/v1/players/{owner.id}").json()["games"]}
    # My tables: a seated player's own list still has it.
    assert tid in {t["id"] for t in friend.get("/api/v1/me/tables").json()}


def _chat_texts(player: Player, tid: str) -> list[Any]:
    return [m["text"] for m in player.get(f"/api/v1/tables/{tid}/chat").json()]


@pytest.mark.parametrize("private", [False, True])
def test_only_seated_players_post_into_a_tables_chat(
    http: httpx.Client, live: LiveServer, private: bool
) -> None:
    owner, friend = new_player(http, "Owner"), new_player(http, "Friend")
    r = owner.post("/api/v1/tables", {"game": "pick", "seats": 2, "private": private})
    tid, code = r.json()["id"], r.json().get("invite_code")
    params = {"invite": code} if code else {}
    assert friend.post(f"/api/v1/tables/{tid}/join", params or None).status_code == 200
    watcher = new_player(http, "Watcher")
    query = f"&invite={code}" if code else ""
    seated = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={friend.token}")
    watching = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={watcher.token}{query}")
    try:
        seated.until(lambda f: f["type"] == "state")
        watching.until(lambda f: f["type"] == "state")
        # The watcher: refused over REST and over the socket, nothing stored or fanned out.
        r = watcher.post(f"/api/v1/tables/{tid}/chat", {"text": "from the rail"}, params=params)
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_seated"
        watching.send({"type": "chat", "text": "from the rail, live"})
        assert watching.until(lambda f: f["type"] == "error")["error"]["code"] == "not_seated"
        # The seated players: both ways work and everybody connected (the watcher too) sees it.
        assert owner.post(f"/api/v1/tables/{tid}/chat", {"text": "hola"}).status_code == 201
        seated.send({"type": "chat", "text": "buenas"})
        for sock in (seated, watching):
            assert sock.until(lambda f: f["type"] == "chat")["message"]["text"] == "hola"
            assert sock.until(lambda f: f["type"] == "chat")["message"]["text"] == "buenas"
        assert _chat_texts(owner, tid) == ["hola", "buenas"]
    finally:
        seated.close()
        watching.close()


def test_a_player_who_leaves_a_private_table_stops_reading_it(
    http: httpx.Client, live: LiveServer
) -> None:
    """Sockets are checked when the seats change, not only on connect: a player who leaves
    (and holds no invite) loses the socket as for an unknown table; an invite holder's stays."""
    _owner, friend, tid, code = _private_table(http)
    leaving = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={friend.token}")
    invited = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?invite={code}")
    try:
        leaving.until(lambda f: f["type"] == "state")
        invited.until(lambda f: f["type"] == "state")
        assert friend.post(f"/api/v1/tables/{tid}/leave").status_code == 204
        gone = leaving.until(lambda f: f["type"] in ("error", "table"))
        assert gone["type"] == "error" and gone["error"]["code"] == "not_found", gone
        with pytest.raises(ConnectionClosed) as closed:
            leaving.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
        # The invite holder still follows the table: it sees the seat free again.
        table = invited.until(
            lambda f: f["type"] == "table" and f["table"]["seats"][1]["player"] is None
        )
        assert table["table"]["id"] == tid
        assert friend.get(f"/api/v1/tables/{tid}").status_code == 404
    finally:
        leaving.close()
        invited.close()
