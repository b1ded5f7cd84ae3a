"""Lobby changes on one server, on SQLite and PostgreSQL: concurrent creates respect the
per-player cap, an owner leaving never strands a player who joined, and the database
refuses a player at two seats of one table."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import create_async_engine

from app.db.models import Seat
from tests.support.client import Player, make_table, new_player
from tests.support.databases import BACKENDS
from tests.support.live import temporary_server

API = "/api/v1"


def at_once(calls: list[Callable[[], httpx.Response]]) -> list[httpx.Response]:
    barrier = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)

    def go(i: int) -> None:
        barrier.wait()
        answers[i] = calls[i]()

    threads = [threading.Thread(target=go, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return answers


def _on_own_connection(url: str, player: Player, path: str, body: Any = None) -> httpx.Response:
    with httpx.Client(base_url=url, timeout=60) as http:
        return http.post(path, json=body, headers=player.auth)


@pytest.mark.parametrize("backend", BACKENDS)
def test_forty_creates_at_once_make_exactly_the_cap(tmp_path: Path, backend: str) -> None:
    with (
        temporary_server(tmp_path, backend, max_open_tables_per_player=20) as live,
        httpx.Client(base_url=live.url, timeout=60) as http,
    ):
        owner = new_player(http, "O")
        body = {"game": "pick", "seats": 2}
        answers = at_once([lambda: _on_own_connection(live.url, owner, f"{API}/tables", body)] * 40)
        codes = [r.status_code for r in answers]
        assert codes.count(201) == 20, codes
        assert {r.json()["error"]["code"] for r in answers if r.status_code != 201} == {
            "too_many_tables"
        }
        owned = [t for t in http.get(f"{API}/tables").json() if t["owner"]["id"] == owner.id]
        assert len(owned) == 20


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_join_racing_the_owner_leaving_is_answered_truly(tmp_path: Path, backend: str) -> None:
    with (
        temporary_server(tmp_path, backend) as live,
        httpx.Client(base_url=live.url, timeout=60) as http,
    ):
        for round_ in range(15):
            owner, joiner = new_player(http, f"O{round_}"), new_player(http, f"J{round_}")
            tid = make_table(owner, "pick", 3)["id"]
            leave, join = at_once(
                [
                    lambda p=owner, t=tid: _on_own_connection(
                        live.url, p, f"{API}/tables/{t}/leave"
                    ),
                    lambda p=joiner, t=tid: _on_own_connection(
                        live.url, p, f"{API}/tables/{t}/join"
                    ),
                ]
            )
            assert leave.status_code == 204
            table = http.get(f"{API}/tables/{tid}")
            if join.status_code == 200:
                assert table.status_code == 200, "the joiner was told a seat at a removed table"
                seats = table.json()["seats"]
                held = [s["seat"] for s in seats if s["player"] and s["player"]["id"] == joiner.id]
                assert held == [join.json()["seat"]]
                assert table.json()["owner"]["id"] == joiner.id
            else:
                assert join.status_code == 404 and join.json()["error"]["code"] == "not_found"
                assert table.status_code == 404


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_database_refuses_a_player_at_two_seats_of_a_table(
    tmp_path: Path, backend: str
) -> None:
    with (
        temporary_server(tmp_path, backend) as live,
        httpx.Client(base_url=live.url, timeout=60) as http,
    ):
        owner, other = new_player(http, "O"), new_player(http, "P")
        tid = make_table(owner, "pick", 4)["id"]
        asyncio.run(_two_seats_refused(live.service().settings.database_url, tid, owner, other))


async def _two_seats_refused(url: str, tid: str, owner: Player, other: Player) -> None:
    engine = create_async_engine(url)
    try:
        # Empty seats (NULL players) never collide: the table has three of them.
        async with engine.connect() as conn:
            empty = await conn.execute(
                select(Seat.seat).where(Seat.table_id == tid, Seat.player_id.is_(None))
            )
            assert len(empty.all()) == 3
        for statement in (
            update(Seat).where(Seat.table_id == tid, Seat.seat == 1).values(player_id=owner.id),
            insert(Seat).values(table_id=tid, seat=7, player_id=owner.id),
        ):
            with pytest.raises(IntegrityError):
                async with engine.begin() as conn:
                    await conn.execute(statement)
        # Another player in a free seat is fine.
        async with engine.begin() as conn:
            await conn.execute(
                update(Seat).where(Seat.table_id == tid, Seat.seat == 1).values(player_id=other.id)
            )
    finally:
        await engine.dispose()
