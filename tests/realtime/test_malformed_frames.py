"""Every malformed WebSocket frame gets an error frame (issue 17.9).

API.md: "A malformed frame answers an `error` and keeps the socket open". Hypothesis
sends frames of every malformed kind (not JSON, binary, nested past any sane depth,
integers past 64 bits, NUL and control characters in ids, wrong types, bad `since`/sync
versions) to a player's socket on both databases; each must be answered by one error frame
in the API.md envelope with a client-error code (never ``internal_error``), and the socket
must then still answer a ping. Bad ``?since=`` values on connect are answered the same way.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed

from tests.support.client import Player, make_table, new_player
from tests.support.databases import BACKENDS
from tests.support.live import temporary_server
from tests.support.wsclient import Socket

CLIENT_ERRORS = {
    "validation_error",
    "illegal_action",
    "stale_version",
    "not_your_turn",
    "unauthorized",
    "rate_limited",
}
BIG = st.one_of(
    st.integers(min_value=2**63, max_value=2**200),
    st.integers(min_value=-(2**200), max_value=-(2**63) - 1),
)
_VERSION = 2  # the table's version when the fuzzing starts (setup is version 1, plus a take)


def _nested(depth: int, kind: str) -> str:
    if kind == "list":
        return "[" * depth + "]" * depth
    return '{"a":' * depth + "1" + "}" * depth


def _in_action(depth: int) -> str:
    action = _nested(depth, "dict")
    return f'{{"type": "action", "version": {_VERSION}, "action": {action}}}'


def _frame(**fields: Any) -> str:
    return json.dumps(fields)


_NUL_TEXT = st.text(min_size=1, max_size=20).map(lambda t: t[: len(t) // 2] + "\x00" + t)
_CONTROL = st.characters(min_codepoint=0, max_codepoint=31).map(lambda c: f"id{c}x")
_WRONG = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: f != int(f)),
    st.text(max_size=10),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.booleans(),
)
_TYPES = st.sampled_from(["action", "undo", "sync", "ping", "chat", "auth"])

MALFORMED = st.one_of(
    # Not JSON at all, or JSON that is not an object.
    st.text(max_size=100).filter(lambda t: not t.strip().startswith(("{", "[", '"'))),
    st.sampled_from(["", "null", "[]", "1", '"sync"', "{", '{"type": "sync",}', "NaN"]),
    # Deeply nested: past the parser's recursion limit, and just deep in an action.
    st.builds(_nested, st.integers(min_value=33, max_value=30_000), st.sampled_from(["list", "dict"])),
    st.builds(_in_action, st.integers(min_value=40, max_value=3_000)),
    # Integers past 64 bits where a version, an id or an action field goes.
    st.builds(lambda v: _frame(type="action", version=v, action={"type": "take", "count": 1}), BIG),
    st.builds(lambda v: _frame(type="undo", version=v), BIG),
    st.builds(lambda v: _frame(type="sync", version=v), BIG),
    st.builds(lambda v: _frame(type="action", version=_VERSION, action={"type": "take", "count": v}), BIG),
    st.builds(lambda v: _frame(type="action", version=v, action={"type": "take"}, id=v), BIG),
    st.builds(lambda v: _frame(type="ping", id=v), BIG),
    # NUL and other control characters in ids (and in a type).
    st.builds(lambda i: _frame(type="action", version=_VERSION, action={"type": "take", "count": 1}, id=i), _NUL_TEXT | _CONTROL),
    st.builds(lambda i: _frame(type="undo", version=_VERSION, id=i), _NUL_TEXT | _CONTROL),
    st.builds(lambda t: _frame(type=t), _NUL_TEXT),
    st.builds(lambda t: _frame(type="chat", text=t), st.just("\x00")),
    # Wrong types and bad sync versions.
    st.builds(lambda t, v: _frame(type=t, version=v), _TYPES, _WRONG),
    st.builds(lambda v: _frame(type="sync", version=v), st.integers(max_value=-1)),
    st.builds(lambda t, v: _frame(type=t, id=v, extra=1), _TYPES, _WRONG),
    st.builds(lambda v: _frame(type="auth", token=v), _WRONG.filter(lambda v: not isinstance(v, str))),
    st.builds(lambda v: _frame(type="chat", text=v), _WRONG.filter(lambda v: not isinstance(v, str))),
    # Binary frames: invalid UTF-8, or bytes that are no frame.
    st.binary(min_size=1, max_size=200),
)  # fmt: skip


def _table(http: httpx.Client) -> tuple[list[Player], str]:
    players = [new_player(http, "A"), new_player(http, "B")]
    tid = make_table(players[0], "pick", 2, {"pile": 30})["id"]
    players[1].post(f"/api/v1/tables/{tid}/join")
    players[0].post(f"/api/v1/tables/{tid}/start")
    return players, tid


def _table_after_a_take(http: httpx.Client) -> tuple[list[Player], str]:
    """A started table at version ``_VERSION``: its setup and one take."""
    players, tid = _table(http)
    version = players[0].state(tid)["version"]
    mover = next(p for p in players if p.state(tid)["legal_actions"])
    assert mover.act(tid, version, {"type": "take", "count": 1}).status_code == 200
    return players, tid


def _answers(sock: Socket, frame: str | bytes) -> list[dict[str, Any]]:
    """Send ``frame`` then a ping; every frame received up to the pong (the socket lives)."""
    sock.conn.send(frame)
    sock.send({"type": "ping"})
    got: list[dict[str, Any]] = []
    while True:
        answer = sock.recv(timeout=15)
        if answer["type"] == "pong":
            return got
        got.append(answer)


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_malformed_frame_gets_an_error_frame_and_the_socket_stays_open(
    backend: str, tmp_path: Path
) -> None:
    with (
        temporary_server(tmp_path, backend, ws_messages_per_second=1000, ws_burst=1000) as live,
        httpx.Client(base_url=live.url, timeout=30) as http,
    ):
        players, tid = _table_after_a_take(http)
        sock = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={players[0].token}")
        sock.until(lambda f: f["type"] == "state")

        @given(frame=MALFORMED)
        @settings(
            max_examples=120, deadline=None, database=None, suppress_health_check=list(HealthCheck)
        )
        def answered(frame: str | bytes) -> None:
            got = _answers(sock, frame)
            errors = [f for f in got if f["type"] == "error"]
            assert len(errors) == 1, (frame[:200], got)
            assert set(errors[0]) <= {"type", "error", "ref"}
            assert errors[0]["error"]["code"] in CLIENT_ERRORS, (frame[:200], errors[0])
            assert isinstance(errors[0]["error"]["message"], str)

        answered()
        assert players[0].state(tid)["version"] == _VERSION
        assert http.get("/healthz").status_code == 200
        sock.close()


BAD_SINCE = st.one_of(
    st.sampled_from(["", "-1", "x", "1.5", "²", "١٢", "0x10", " 1", "1e3", "%00", "1%002"]),
    st.integers(min_value=2**63, max_value=2**200).map(str),
    st.text(max_size=8).filter(lambda t: not t.isascii() or not t.isdigit()),
)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_bad_since_on_connect_gets_an_error_frame_then_the_state(
    backend: str, tmp_path: Path
) -> None:
    with (
        temporary_server(tmp_path, backend) as live,
        httpx.Client(base_url=live.url, timeout=30) as http,
    ):
        players, tid = _table(http)

        @given(since=BAD_SINCE)
        @settings(
            max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck)
        )
        def connect(since: str) -> None:
            query = httpx.QueryParams({"token": players[0].token, "since": since})
            sock = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?{query}")
            try:
                error = sock.until(lambda f: f["type"] in ("error", "state"))
                assert error["type"] == "error", since
                assert error["error"]["code"] == "validation_error"
                assert error["error"].get("field") == "since"
                assert sock.until(lambda f: f["type"] == "state")["seat"] == 0
                sock.send({"type": "ping"})
                assert sock.until(lambda f: f["type"] == "pong")
            finally:
                sock.close()

        connect()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_table_id_with_a_nul_is_not_found_with_a_close_frame(
    backend: str, tmp_path: Path
) -> None:
    with (
        temporary_server(tmp_path, backend) as live,
        httpx.Client(base_url=live.url, timeout=30) as http,
    ):
        player = new_player(http, "A")
        for tid in ("%00", "a%00b", f"{'0' * 15}%00"):
            for query in ("", f"?token={player.token}", "?since=%00"):
                sock = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws{query}")
                frames: list[dict[str, Any]] = []
                with pytest.raises(ConnectionClosed) as closed:
                    while True:
                        frames.append(sock.recv(timeout=10))
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404, (
                    tid,
                    query,
                )
                assert [f["error"]["code"] for f in frames] == ["not_found"]
            # Over REST no id has a NUL (the id type's pattern): a 422 naming the parameter.
            for path in (f"/api/v1/tables/{tid}", f"/api/v1/tables/{tid}/state"):
                r = player.get(path)
                assert r.status_code == 422 and r.json()["error"]["code"] == "validation_error"


# Each field of each frame with a value of another JSON type that a lax parser would coerce
# to the right one (issue 34.8: frames are as strict as request bodies).
_CONFUSED_FRAMES = [
    {"type": "action", "version": str(_VERSION), "action": {"type": "take", "count": 1}},
    {"type": "action", "version": float(_VERSION), "action": {"type": "take", "count": 1}},
    {"type": "action", "version": True, "action": {"type": "take", "count": 1}},
    {"type": "action", "version": _VERSION, "action": {"type": "take", "count": 1}, "id": 7.0},
    {"type": "undo", "version": str(_VERSION)},
    {"type": "undo", "version": float(_VERSION)},
    {"type": "sync", "version": "0"},
    {"type": "sync", "version": 0.0},
    {"type": "sync", "version": False},
    {"type": "chat", "text": 7},
    {"type": "auth", "token": 7},
    {"type": "action", "version": _VERSION, "action": {"type": "take", "count": "1"}},
    {"type": "action", "version": _VERSION, "action": {"type": "tak", "count": 1}},
]


def _confused(frame: dict[str, Any]) -> str:
    """The JSON path of the confused value in one of _CONFUSED_FRAMES."""
    if "id" in frame:
        return "id"
    if "action" in frame and type(frame["version"]) is int:
        return "action.count" if frame["action"]["type"] == "take" else "action.type"
    return next(k for k in ("version", "text", "token") if k in frame)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_type_confused_frame_field_is_refused_and_changes_nothing(
    backend: str, tmp_path: Path
) -> None:
    with (
        temporary_server(tmp_path, backend, ws_messages_per_second=1000, ws_burst=1000) as live,
        httpx.Client(base_url=live.url, timeout=30) as http,
    ):
        players, tid = _table_after_a_take(http)
        # The next mover's socket: a coerced version would apply its action.
        mover = next(p for p in players if p.state(tid)["legal_actions"])
        sock = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={mover.token}")
        sock.until(lambda f: f["type"] == "state")
        for frame in _CONFUSED_FRAMES:
            got = _answers(sock, json.dumps(frame))
            errors = [f for f in got if f["type"] == "error"]
            assert [e["error"]["code"] for e in errors] == ["validation_error"], (frame, got)
            # The value's path in the frame, the same in the envelope and in params (issue 35).
            error = errors[0]["error"]
            assert error["field"] == error["params"]["field"] == _confused(frame), (frame, got)
            assert not [f for f in got if f["type"] == "state"], (frame, got)
        assert mover.state(tid)["version"] == _VERSION
        sock.close()
