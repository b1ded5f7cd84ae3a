"""The actions' writer (app.db.writer): actions of many tables arriving together share one
transaction, each is answered only once stored, a client id used before is answered as its
first answer whichever path it takes, and a failing group costs no action."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.client import Player, acting, make_table, new_player
from tests.support.databases import BACKENDS
from tests.support.live import LiveServer, temporary_server

TAKE = {"type": "take", "count": 1}


def _run(live: LiveServer, coro: Any) -> Any:
    return asyncio.run_coroutine_threadsafe(coro, live.app.state.loop).result(timeout=60)


def _started_table(http: httpx.Client) -> tuple[list[Player], str]:
    a, b = new_player(http, "A"), new_player(http, "B")
    tid = make_table(a, "pick", 2)["id"]
    b.post(f"/api/v1/tables/{tid}/join")
    assert a.post(f"/api/v1/tables/{tid}/start").status_code == 200
    return [a, b], tid


def _log_versions(http: httpx.Client, tid: str) -> list[int]:
    return [e["version"] for e in http.get(f"/api/v1/tables/{tid}/log").json()["events"]]


@pytest.mark.parametrize("backend", BACKENDS)
def test_actions_of_many_tables_arriving_together_share_one_transaction(
    backend: str, tmp_path: Path
) -> None:
    with temporary_server(tmp_path, backend) as live, httpx.Client(base_url=live.url) as http:
        service = live.service()
        assert service.group is not None
        moves = []
        for _ in range(8):
            players, tid = _started_table(http)
            _, state = acting(players, tid)
            moves.append((tid, state["seat"], state["version"]))
        groups, actions = service.group.groups, service.group.actions

        async def all_at_once() -> list[dict[str, Any]]:
            return await asyncio.gather(
                *(service.moves.act_as_seat(t, s, v, TAKE, None) for t, s, v in moves)
            )

        answers = _run(live, all_at_once())
        assert [a["version"] for a in answers] == [v + 1 for _, _, v in moves]
        assert service.group.actions - actions == 8
        assert service.group.groups - groups == 1
        for tid, _, version in moves:
            assert http.get(f"/api/v1/tables/{tid}/state").json()["version"] == version + 1
            assert _log_versions(http, tid)[-1] == version + 1


@pytest.mark.parametrize("group_commit", [True, False])
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_client_id_used_before_is_answered_as_its_first_answer_at_any_version(
    backend: str, group_commit: bool, tmp_path: Path
) -> None:
    """Also when the action it comes with would be legal now: the id is the action."""
    with (
        temporary_server(tmp_path, backend, group_commit=group_commit) as live,
        httpx.Client(base_url=live.url) as http,
    ):
        assert (live.service().group is not None) is group_commit
        players, tid = _started_table(http)
        mover, state = acting(players, tid)
        first = mover.act(tid, state["version"], TAKE, id="k-1")
        assert first.status_code == 200
        other, after = acting(players, tid)
        assert other is not mover
        assert other.act(tid, after["version"], TAKE).status_code == 200
        again, now = acting(players, tid)
        assert again is mover
        retry = mover.act(tid, now["version"], TAKE, id="k-1")
        assert retry.status_code == 200, retry.text
        body = retry.json()
        assert body.pop("replayed") is True
        assert body["version"] == first.json()["version"]
        assert mover.state(tid)["version"] == now["version"]
        assert _log_versions(http, tid) == [state["version"] + 1, state["version"] + 2]
        # The same id from another seat: a conflict, and nothing changes.
        stolen = other.act(tid, now["version"], TAKE, id="k-1")
        assert stolen.status_code == 409, stolen.text
        assert stolen.json()["error"]["code"] == "idempotency_conflict"
        assert mover.state(tid)["version"] == now["version"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_group_that_fails_costs_no_action(backend: str, tmp_path: Path) -> None:
    """Each action of a failed group is committed alone on the ORM path."""
    with temporary_server(tmp_path, backend) as live, httpx.Client(base_url=live.url) as http:
        store = live.service().group.store

        async def broken(_group: Any) -> list[bool]:
            raise RuntimeError("the writer's connection broke")

        working = store.commit_group
        store.commit_group = broken
        try:
            players, tid = _started_table(http)
            mover, state = acting(players, tid)
            r = mover.act(tid, state["version"], TAKE, id="k-2")
            assert r.status_code == 200, r.text
            assert r.json()["version"] == state["version"] + 1
        finally:
            store.commit_group = working
        assert _log_versions(http, tid) == [state["version"] + 1]
        other, after = acting(players, tid)
        assert other.act(tid, after["version"], TAKE).status_code == 200
        assert _log_versions(http, tid) == [state["version"] + 1, state["version"] + 2]


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_move_of_a_game_the_last_one_too_goes_through_the_writer(
    backend: str, tmp_path: Path
) -> None:
    """The move that ends the game too: its result is ranked inside the writer's transaction
    (resignations: tests/api/test_endings.py, which runs on a server with the writer)."""
    with temporary_server(tmp_path, backend) as live, httpx.Client(base_url=live.url) as http:
        group = live.service().group
        players, tid = _started_table(http)
        before, moves = group.actions, 0
        while True:
            mover, state = acting(players, tid)
            r = mover.act(tid, state["version"], state["legal_actions"][0])
            assert r.status_code == 200, r.text
            moves += 1
            if r.json()["status"] == "finished":
                break
        assert group.actions - before == moves
        table = http.get(f"/api/v1/tables/{tid}").json()
        assert table["status"] == "finished" and table["result"]["ranking"]
        assert _log_versions(http, tid)[-1] == table["version"]
