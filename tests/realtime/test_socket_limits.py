"""Per-client socket limits (issue 17.6): sockets per player and per address, message
credits that a reconnect does not refill, chat per player across REST and sockets, and
presence frames only when a player's connected state at a table really changes."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.support.client import Player, make_table, new_player
from tests.support.databases import BACKENDS
from tests.support.live import LiveServer, temporary_server
from tests.support.wsclient import Socket


@contextmanager
def _server(tmp_path: Path, backend: str, **overrides: Any) -> Iterator[tuple[LiveServer, Any]]:
    with (
        temporary_server(tmp_path, backend, **overrides) as live,
        httpx.Client(base_url=live.url, timeout=30) as http,
    ):
        yield live, http


def _table(http: httpx.Client, start: bool = True) -> tuple[list[Player], str]:
    players = [new_player(http, "A"), new_player(http, "B")]
    tid = make_table(players[0], "pick", 2, {"pile": 30})["id"]
    players[1].post(f"/api/v1/tables/{tid}/join")
    if start:
        players[0].post(f"/api/v1/tables/{tid}/start")
    return players, tid


def _open(live: LiveServer, tid: str, query: str = "", auth: str | None = None) -> Socket:
    """A socket that got its first state frame (with ``auth``: authenticated in the first
    frame, ``?auth=frame``)."""
    if auth is not None:
        query = "auth=frame" + (f"&{query}" if query else "")
    sock = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws" + (f"?{query}" if query else ""))
    if auth is not None:
        sock.send({"type": "auth", "token": auth})
    sock.until(lambda f: f["type"] == "state")
    return sock


def _open_once_freed(
    live: LiveServer, tid: str, query: str = "", auth: str | None = None
) -> Socket:
    """``_open`` after a socket was closed: the server frees its place when it has seen the
    close, so an attempt refused (1008) before that is made again (a probe, not a clock)."""
    for _ in range(200):
        try:
            return _open(live, tid, query, auth)
        except ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 1008
    raise AssertionError("the closed socket's place was never freed")


def _refused(live: LiveServer, tid: str, query: str = "", auth: str | None = None) -> None:
    """The socket is refused: a ``rate_limited`` error frame, then close 1008."""
    if auth is not None:
        query = "auth=frame" + (f"&{query}" if query else "")
    sock = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws" + (f"?{query}" if query else ""))
    if auth is not None:
        # A socket refused by its address is closed before it can send its auth frame.
        with contextlib.suppress(ConnectionClosed):
            sock.send({"type": "auth", "token": auth})
    _assert_refused(sock)


def _assert_refused(sock: Socket) -> None:
    frames: list[dict[str, Any]] = []
    try:
        while True:
            frames.append(sock.recv(timeout=10))
    except ConnectionClosed as closed:
        code = closed.rcvd.code if closed.rcvd else None
    assert code == 1008, frames
    errors = [f for f in frames if f["type"] == "error"]
    assert errors and errors[-1]["error"]["code"] == "rate_limited", frames
    assert "too many open sockets" in errors[-1]["error"]["message"]
    assert not [f for f in frames if f["type"] == "state" and f.get("seat") is not None]


@pytest.mark.parametrize("backend", BACKENDS)
def test_sockets_per_player_are_capped_across_tables_and_every_way_to_authenticate(
    backend: str, tmp_path: Path
) -> None:
    with _server(tmp_path, backend, ws_max_sockets_per_player=3) as (live, http):
        (a, b), tid = _table(http)
        other = make_table(a, "pick", 2, {"pile": 30})["id"]
        held = [
            _open(live, tid, f"token={a.token}"),
            _open(live, tid, auth=a.token),
            _open(live, other, f"token={a.token}"),
        ]
        # A fourth socket of A, whichever way it authenticates, at either table: refused.
        _refused(live, tid, f"token={a.token}")
        _refused(live, other, auth=a.token)
        spectator = _open(live, tid)
        spectator.send({"type": "auth", "token": a.token})
        _assert_refused(spectator)
        # Another player is not affected; a closed socket frees its place.
        _open(live, tid, f"token={b.token}").close()
        held.pop().close()
        again = _open_once_freed(live, other, auth=a.token)
        assert again.frames[-1]["seat"] == 0
        for sock in [*held, again]:
            sock.close()


def _closed_silent(sock: Socket) -> list[dict[str, Any]]:
    """The socket is closed for its silence: an ``unauthorized`` error frame, then 4408;
    the frames it got before."""
    frames: list[dict[str, Any]] = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            frames.append(sock.recv(timeout=30))
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4408, frames
    assert frames and frames[-1]["type"] == "error", frames
    assert frames[-1]["error"]["code"] == "unauthorized", frames
    assert frames[-1]["error"]["reason"] == "silent", frames
    return frames


def _play(sockets: list[Socket]) -> None:
    """The players of a started table each act once, in turn, through ``sockets`` (one
    each), and each is answered with the state its action made."""
    version = max(f["version"] for sock in sockets for f in sock.frames if f["type"] == "state")
    movers = []
    for _ in sockets:
        states = [sock.state_at(version) for sock in sockets]
        mover = next(i for i, state in enumerate(states) if state["legal_actions"])
        ref = f"move-{version}"
        action = states[mover]["legal_actions"][0]
        sockets[mover].send({"type": "action", "version": version, "action": action, "id": ref})
        answer = sockets[mover].until(lambda f, ref=ref: f.get("ref") == ref)
        assert answer["type"] == "state" and answer["version"] == version + 1, answer
        movers.append(mover)
        version += 1
    assert sorted(movers) == list(range(len(sockets)))


@pytest.mark.parametrize("backend", BACKENDS)
def test_only_anonymous_sockets_count_against_their_address(backend: str, tmp_path: Path) -> None:
    # Silent spectators stay (ws_silent_seconds=0): however slow the machine, the counts
    # change only when the test opens or closes a socket.
    with _server(
        tmp_path, backend, rate_limit_enabled=True, ws_max_sockets_per_ip=3, ws_silent_seconds=0
    ) as (live, http):
        (a, b), tid = _table(http)
        spectators = [_open(live, tid) for _ in range(3)]
        _refused(live, tid)
        # The address is full of spectators: its players still get in, however they sign in,
        # and a socket awaiting its auth frame is not refused for the spectators either.
        players = [
            _open(live, tid, f"token={a.token}"),
            _open(live, tid, auth=b.token),
            _open(live, tid, auth=a.token),
        ]
        assert [p.frames[-1]["seat"] for p in players] == [0, 1, 0]
        _refused(live, tid)
        # A spectator that signs in leaves its address's count: a new spectator gets in.
        spectators[0].send({"type": "auth", "token": b.token})
        spectators[0].until(lambda f: f["type"] == "state" and f["seat"] == 1)
        players.append(spectators.pop(0))
        spectators.append(_open(live, tid))
        _refused(live, tid)
        # A closed spectator's place is free again.
        spectators.pop().close()
        spectators.append(_open_once_freed(live, tid))
        for sock in [*spectators, *players]:
            sock.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_forty_anonymous_sockets_never_lock_seated_players_out(
    backend: str, tmp_path: Path
) -> None:
    """A carrier NAT, a school LAN: one address, many spectators, and players among them."""
    with _server(tmp_path, backend, rate_limit_enabled=True, ws_silent_seconds=0) as (
        live,
        http,
    ):
        tables = [_table(http) for _ in range(5)]
        url = f"{live.ws_url}/api/v1/tables/{tables[0][1]}/ws"
        anonymous, refused = [], 0
        for _ in range(40):
            sock = Socket(url)
            try:
                sock.until(lambda f: f["type"] == "state")
                anonymous.append(sock)
            except ConnectionClosed as closed:
                assert closed.rcvd is not None and closed.rcvd.code == 1008
                assert sock.frames[-1]["error"]["code"] == "rate_limited"
                refused += 1
        # The anonymous cap holds: the 33rd to the 40th were refused.
        assert (len(anonymous), refused) == (32, 8)
        # Ten seated players from the same address all connect and play (half with a token
        # query, half with an auth frame).
        seated = [
            [_open(live, tid, f"token={p.token}") if i % 2 else _open(live, tid, auth=p.token)
             for p in players]
            for i, (players, tid) in enumerate(tables)
        ]  # fmt: skip
        for pair in seated:
            _play(pair)
        _refused(live, tables[0][1])
        for sock in [*anonymous, *(s for pair in seated for s in pair)]:
            sock.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_socket_that_never_authenticates_is_closed_and_frees_its_place(
    backend: str, tmp_path: Path
) -> None:
    with _server(
        tmp_path, backend, rate_limit_enabled=True, ws_max_sockets_per_ip=4, ws_auth_seconds=0.5
    ) as (live, http):
        (a, _b), tid = _table(http)
        url = f"{live.ws_url}/api/v1/tables/{tid}/ws?auth=frame"
        # As many as the address may have waiting at once: all closed, nothing sent before.
        pending = [Socket(url) for _ in range(4)]
        for sock in pending:
            assert _closed_silent(sock) == [sock.frames[-1]]
        # Their places are free again: an address is never left locked by them.
        late = _open_once_freed(live, tid, auth=a.token)
        assert late.frames[-1]["seat"] == 0
        late.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_sockets_awaiting_their_auth_frame_are_capped_per_address_apart(
    backend: str, tmp_path: Path
) -> None:
    with _server(
        tmp_path, backend, rate_limit_enabled=True, ws_max_sockets_per_ip=2, ws_auth_seconds=60
    ) as (live, http):
        (a, b), tid = _table(http)
        pending = [Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?auth=frame") for _ in range(2)]
        _refused(live, tid, auth=a.token)
        # Spectators and players are not refused for them.
        watchers = [_open(live, tid), _open(live, tid), _open(live, tid, f"token={b.token}")]
        # One signs in: a place for another one awaiting its frame.
        pending[0].send({"type": "auth", "token": a.token})
        pending[0].until(lambda f: f["type"] == "state" and f["seat"] == 0)
        late = _open_once_freed(live, tid, auth=a.token)
        for sock in [*pending, *watchers, late]:
            sock.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_spectator_silent_past_the_ping_deadline_is_closed_a_player_never(
    backend: str, tmp_path: Path
) -> None:
    with _server(tmp_path, backend, rate_limit_enabled=True, ws_silent_seconds=0.5) as (
        live,
        http,
    ):
        (a, _b), tid = _table(http)
        player = _open(live, tid, f"token={a.token}")
        talker = _open(live, tid)
        talker.send({"type": "ping"})
        talker.until(lambda f: f["type"] == "pong")
        silent = _open(live, tid)
        # It got the table and its state, then was closed for saying nothing.
        _closed_silent(silent)
        assert [f["type"] for f in silent.frames][-1] == "error"
        assert "state" in [f["type"] for f in silent.frames]
        # Opened before it and silent as long: the player's socket stays open, and so does
        # the spectator's that spoke in time.
        for sock in (player, talker):
            sock.send({"type": "ping"})
            sock.until(lambda f: f["type"] == "pong")
            sock.close()


def _pings(sock: Socket, count: int) -> list[str]:
    """Send ``count`` pings; the answer to each (pong or the error code)."""
    answers = []
    for _ in range(count):
        sock.send({"type": "ping"})
        frame = sock.until(lambda f: f["type"] in ("pong", "error"))
        answers.append("pong" if frame["type"] == "pong" else frame["error"]["code"])
    return answers


@pytest.mark.parametrize("backend", BACKENDS)
def test_message_credits_belong_to_the_player_and_survive_a_reconnect(
    backend: str, tmp_path: Path
) -> None:
    # 5 credits, refilled at one per 1000 s: spent credits stay spent during the test.
    with _server(tmp_path, backend, ws_burst=5, ws_messages_per_second=0.001) as (live, http):
        (a, b), tid = _table(http)
        first = _open(live, tid, f"token={a.token}")
        second = _open(live, tid, auth=a.token)
        assert _pings(first, 3) == ["pong"] * 3
        # A second socket of the same player draws on the same credits.
        assert _pings(second, 3) == ["pong", "pong", "rate_limited"]
        first.close()
        second.close()
        # Reconnecting does not refill them, however the socket authenticates ...
        assert _pings(_open(live, tid, f"token={a.token}"), 1) == ["rate_limited"]
        assert _pings(_open(live, tid, auth=a.token), 1) == ["rate_limited"]
        # ... while another player has credits of its own.
        assert _pings(_open(live, tid, f"token={b.token}"), 5) == ["pong"] * 5
        # A spectator's credits are its address's: a reconnect does not refill them either.
        watcher = _open(live, tid)
        assert _pings(watcher, 5) == ["pong"] * 5
        watcher.close()
        assert _pings(_open(live, tid), 1) == ["rate_limited"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_chat_is_rate_limited_per_player_across_rest_and_sockets(
    backend: str, tmp_path: Path
) -> None:
    with _server(tmp_path, backend, rate_limit_enabled=True, rate_limit_chat="3/minute") as (
        live,
        http,
    ):
        (a, b), tid = _table(http)
        chat = f"/api/v1/tables/{tid}/chat"
        sockets = [_open(live, tid, f"token={a.token}"), _open(live, tid, auth=a.token)]
        assert a.post(chat, {"text": "uno"}).status_code == 201
        sockets[0].send({"type": "chat", "text": "dos"})
        sockets[0].until(lambda f: f["type"] == "chat" and f["message"]["text"] == "dos")
        assert a.post(chat, {"text": "tres"}).status_code == 201
        # The fourth line within the minute, by any path, is refused and not stored.
        sockets[1].send({"type": "chat", "text": "cuatro"})
        error = sockets[1].until(lambda f: f["type"] == "error")
        assert error["error"]["code"] == "rate_limited"
        refused = a.post(chat, {"text": "cinco"})
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
        fresh = _open(live, tid, f"token={a.token}")
        fresh.send({"type": "chat", "text": "seis"})
        assert fresh.until(lambda f: f["type"] == "error")["error"]["code"] == "rate_limited"
        # Another player chats freely.
        assert b.post(chat, {"text": "hola"}).status_code == 201
        texts = [m["text"] for m in http.get(chat).json()]
        assert texts == ["uno", "dos", "tres", "hola"]
        for sock in [*sockets, fresh]:
            sock.close()


def _connected(frame: dict[str, Any], seat: int) -> bool | None:
    if frame["type"] != "table" or not frame.get("table"):
        return None
    return bool(frame["table"]["seats"][seat]["connected"])


@pytest.mark.parametrize("backend", BACKENDS)
def test_extra_sockets_of_a_player_send_no_table_frames_to_the_table(
    backend: str, tmp_path: Path
) -> None:
    with _server(tmp_path, backend) as (live, http):
        (a, b), tid = _table(http)
        watcher = _open(live, tid, f"token={b.token}")
        # A's first socket: A is now connected.
        main = _open(live, tid, f"token={a.token}")
        watcher.until(lambda f: _connected(f, 0) is True)
        seen = len(watcher.frames)
        # Extra sockets of A open and close, by query token, first frame and later auth.
        for query, auth in ((f"token={a.token}", None), ("", a.token), (f"token={a.token}", None)):
            _open(live, tid, query, auth).close()
        late = _open(live, tid)
        late.send({"type": "auth", "token": a.token})
        late.until(lambda f: f["type"] == "state" and f["seat"] == 0)
        late.close()
        # A's last socket closes: A is disconnected, said once.
        main.close()
        watcher.until(lambda f: _connected(f, 0) is False)
        watcher.send({"type": "ping"})
        watcher.until(lambda f: f["type"] == "pong")
        tables = [f for f in watcher.frames[seen:] if f["type"] == "table"]
        assert [_connected(f, 0) for f in tables] == [False], tables
        # A first socket authenticated in its first frame, or a spectator's socket that
        # authenticates later as a seated player, is a presence change too.
        first_frame = _open(live, tid, auth=a.token)
        watcher.until(lambda f: _connected(f, 0) is True)
        first_frame.close()
        watcher.until(lambda f: _connected(f, 0) is False)
        spectator = _open(live, tid)
        spectator.send({"type": "auth", "token": a.token})
        watcher.until(lambda f: _connected(f, 0) is True)
        spectator.close()
        watcher.until(lambda f: _connected(f, 0) is False)
        watcher.close()
