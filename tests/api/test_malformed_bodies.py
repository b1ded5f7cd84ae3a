"""REST siblings of issue 17.9: an action or undo whose idempotency id holds a NUL or
another control character, or whose action nests deeper than any game's, is a 422
validation_error that changes nothing (it was a PostgreSQL error: 500 or a reset
connection, and a serializer's depth error: 500)."""

from __future__ import annotations

import httpx
import pytest

from tests.support.client import Player, acting, make_table, new_player


def _table(http: httpx.Client) -> tuple[list[Player], str]:
    players = [new_player(http, "A"), new_player(http, "B")]
    tid = make_table(players[0], "pick", 2, {"pile": 30})["id"]
    players[1].post(f"/api/v1/tables/{tid}/join")
    players[0].post(f"/api/v1/tables/{tid}/start")
    return players, tid


def _nested(depth: int) -> str:
    return '{"a":' * depth + "1" + "}" * depth


@pytest.mark.parametrize("bad_id", ["\x00", "a\x00b", "x\x01", "\x1f", "tab\there", "\x7f"])
def test_an_id_with_a_control_character_is_refused_and_changes_nothing(
    http: httpx.Client, bad_id: str
) -> None:
    players, tid = _table(http)
    mover, state = acting(players, tid)
    take = {"type": "take", "count": 1}
    for path, body in (
        ("actions", {"version": state["version"], "action": take, "id": bad_id}),
        ("undo", {"version": state["version"], "id": bad_id}),
    ):
        r = mover.post(f"/api/v1/tables/{tid}/{path}", body)
        assert r.status_code == 422, (path, r.text)
        assert r.json()["error"]["code"] == "validation_error"
    assert mover.state(tid)["version"] == state["version"]


@pytest.mark.parametrize("depth", [33, 100, 300, 2_000, 9_000, 30_000])
def test_a_deeply_nested_action_is_refused_and_changes_nothing(
    http: httpx.Client, depth: int
) -> None:
    players, tid = _table(http)
    mover, state = acting(players, tid)
    body = f'{{"version": {state["version"]}, "action": {{"type": "take", "x": {_nested(depth)}}}}}'
    r = mover.http.post(
        f"/api/v1/tables/{tid}/actions",
        content=body,
        headers={**mover.auth, "content-type": "application/json"},
    )
    # Refused as a client error: 422 once parsed, 400 past the JSON parser's own depth,
    # 413 past the body size; never a 5xx.
    assert r.status_code in (400, 413, 422), r.text
    code = r.json()["error"]["code"]
    assert code in {"validation_error", "bad_request", "payload_too_large"}, r.text
    assert mover.state(tid)["version"] == state["version"]
