"""A table deleted through one instance is gone for every instance: 404, never a 500.

Two app instances share one database (no broker between them: nothing tells A that
the table went away). Instance A holds the table in its cache, instance B deletes it
(the host's admin delete of a game in progress, or the owner leaving an open table
nobody joined), then every call that addresses the table through A answers
``404 not_found`` in the envelope.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.main import create_app
from tests.conftest import test_games, test_settings
from tests.support.client import Player, acting, make_table, new_player
from tests.support.databases import BACKENDS, fresh_database
from tests.support.live import LiveServer

ADMIN = "admin-token-for-the-deleted-table-test"


@pytest.fixture(params=BACKENDS)
def two_instances(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[tuple[httpx.Client, httpx.Client]]:
    with fresh_database(request.param, tmp_path) as url:
        servers = [
            LiveServer(
                create_app(test_settings(url, admin_token=ADMIN), games=test_games())  # type: ignore[arg-type]
            ).start()
            for _ in range(2)
        ]
        try:
            with (
                httpx.Client(base_url=servers[0].url, timeout=30) as a,
                httpx.Client(base_url=servers[1].url, timeout=30) as b,
            ):
                yield a, b
        finally:
            for server in servers:
                server.stop()


def _calls(tid: str, version: int, action: dict[str, Any]) -> list[tuple[str, str, Any]]:
    """Every REST call that addresses one table (method, path, body)."""
    base = f"/api/v1/tables/{tid}"
    return [
        ("GET", base, None),
        ("GET", f"{base}/state", None),
        ("POST", f"{base}/actions", {"version": version, "action": action}),
        ("POST", f"{base}/actions", {"version": version, "action": action, "id": "c-1"}),
        ("POST", f"{base}/undo", {"version": version}),
        ("GET", f"{base}/log", None),
        ("GET", f"{base}/replay", None),
        ("GET", f"{base}/replay/steps", None),
        ("GET", f"{base}/chat", None),
        ("POST", f"{base}/chat", {"text": "still there?"}),
        ("POST", f"{base}/join", None),
        ("POST", f"{base}/bots", {}),
        ("POST", f"{base}/start", None),
        ("POST", f"{base}/seats/1/takeover", None),
        ("POST", f"{base}/take-back", None),
    ]


def _assert_all_not_found(
    players: list[Player], tid: str, calls: list[tuple[str, str, Any]]
) -> None:
    for player in players:
        for method, path, body in calls:
            r = player.http.request(method, path, json=body, headers=player.auth)
            assert r.status_code == 404, (player.name, method, path, r.status_code, r.text)
            assert r.json()["error"]["code"] == "not_found", (method, path, r.text)
        # Leaving stays idempotent (API.md: 204): whoever leaves a table that is gone holds
        # no seat there, which is what they asked for.
        assert player.post(f"/api/v1/tables/{tid}/leave").status_code == 204


def test_a_game_deleted_through_another_instance_answers_404_everywhere(
    two_instances: tuple[httpx.Client, httpx.Client],
) -> None:
    a, b = two_instances
    players = [new_player(a, "Ann"), new_player(a, "Bob")]
    tid = make_table(players[0], "pick", 2, {"pile": 30})["id"]
    assert players[1].post(f"/api/v1/tables/{tid}/join").status_code == 200
    assert players[0].post(f"/api/v1/tables/{tid}/start").status_code == 200
    mover, state = acting(players, tid)
    r = mover.act(tid, state["version"], state["legal_actions"][0])
    assert r.status_code == 200, r.text
    # Instance A now holds the table, at its newest version, in its cache.
    mover, state = acting(players, tid)

    gone = b.delete(f"/api/v1/admin/tables/{tid}", headers={"Authorization": f"Bearer {ADMIN}"})
    assert gone.status_code == 204, gone.text

    # The move A would have accepted a moment ago, first of all (the cached snapshot agrees
    # with the version the client sends), then every other call on the table.
    r = mover.act(tid, state["version"], state["legal_actions"][0])
    assert r.status_code == 404, r.text
    assert r.json()["error"]["code"] == "not_found"
    _assert_all_not_found(players, tid, _calls(tid, state["version"], state["legal_actions"][0]))


def test_an_open_table_its_owner_left_through_another_instance_answers_404(
    two_instances: tuple[httpx.Client, httpx.Client],
) -> None:
    a, b = two_instances
    owner, guest = new_player(a, "Owner"), new_player(a, "Guest")
    tid = make_table(owner, "pick", 3)["id"]
    # Instance A reads (and caches) the open table.
    assert guest.get(f"/api/v1/tables/{tid}").status_code == 200
    assert guest.get(f"/api/v1/tables/{tid}/state").status_code == 200

    # The owner leaves through B: nobody else sat down, so the table is deleted.
    on_b = Player(owner.id, owner.name, owner.token, b)
    assert on_b.post(f"/api/v1/tables/{tid}/leave").status_code == 204
    assert b.get(f"/api/v1/tables/{tid}").status_code == 404

    _assert_all_not_found([guest, owner], tid, _calls(tid, 0, {"type": "take", "n": 1}))
