"""Migration 0007 on a database that lobby races left in impossible seatings: it repairs
them (every running game stays playable) and then refuses a player at two seats of a table."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

import pytest
from alembic import command
from sqlalchemy import Table, insert, select
from sqlalchemy.ext.asyncio import create_async_engine

from app.db.models import ChatMessage, GameTable, Player, Seat
from app.migrate import alembic_config
from tests.support.databases import BACKENDS, fresh_database

NOW = datetime(2026, 12, 1, tzinfo=UTC)
PLAYERS, TABLES, SEATS, CHAT = (
    cast(Table, m.__table__) for m in (Player, GameTable, Seat, ChatMessage)
)

# (table, status, owner, [(player, bot_level) per seat])
RACED: list[tuple[str, str, str, list[tuple[str | None, str | None]]]] = [
    # open: p1 at two seats; p2 seated with a bot at one seat
    ("open_a", "open", "p1", [("p1", None), ("p1", None), ("p2", "normal")]),
    # playing: an empty seat, p1 at two seats, and a seat a bot took over (legitimate)
    ("play_b", "playing", "p1", [("p1", None), (None, None), ("p1", None), ("p2", "random")]),
    # open: the owner left while p2 joined
    ("open_c", "open", "p3", [(None, None), ("p2", None), (None, None)]),
    # open: nobody seated (the owner left, the removal was lost)
    ("open_d", "open", "p1", [(None, None), (None, "normal")]),
    # a sound finished game
    ("done_e", "finished", "p1", [("p1", None), ("p2", None)]),
]


def _table(tid: str, status: str, owner: str, seats: int) -> dict[str, Any]:
    return {
        "id": tid, "game": "mine", "options": {}, "status": status, "seat_count": seats,
        "private": False, "invite_code": "", "seed": 1, "seed_secret": "", "version": 0,
        "owner_id": owner, "created_at": NOW, "updated_at": NOW, "rated": False,
    }  # fmt: skip


async def _fill(url: str) -> None:
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(
                insert(PLAYERS),
                [
                    {"id": p, "name": p, "token_hash": p, "is_blocked": False, "created_at": NOW}
                    for p in ("p1", "p2", "p3")
                ],
            )
            for tid, status, owner, seats in RACED:
                await conn.execute(insert(TABLES).values(**_table(tid, status, owner, len(seats))))
                await conn.execute(
                    insert(SEATS),
                    [
                        {"table_id": tid, "seat": i, "player_id": p, "bot_level": b}
                        for i, (p, b) in enumerate(seats)
                    ],
                )
            await conn.execute(
                insert(CHAT).values(
                    table_id="open_d", player_id="p1", player_name="p1", text="hi", created_at=NOW
                )
            )
    finally:
        await engine.dispose()


async def _read(url: str) -> tuple[dict[str, list[tuple[Any, Any]]], dict[str, str], int]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            seats: dict[str, list[tuple[Any, Any]]] = {}
            rows = await conn.execute(select(SEATS).order_by(SEATS.c.table_id, SEATS.c.seat))
            for row in rows:
                seats.setdefault(row.table_id, []).append((row.player_id, row.bot_level))
            owners = dict((await conn.execute(select(TABLES.c.id, TABLES.c.owner_id))).all())
            chat = len((await conn.execute(select(CHAT.c.id))).all())
        return seats, owners, chat
    finally:
        await engine.dispose()


@pytest.mark.parametrize("backend", BACKENDS)
def test_0007_repairs_raced_seatings_and_then_refuses_them(backend: str, tmp_path: Path) -> None:
    with fresh_database(backend, tmp_path, migrate=False) as url:
        config = alembic_config(url)
        command.upgrade(config, "0006")
        asyncio.run(_fill(url))
        command.upgrade(config, "head")
        seats, owners, chat = asyncio.run(_read(url))
        # Downgrading and upgrading again keeps the repaired rows.
        command.downgrade(config, "0006")
        command.upgrade(config, "head")
        assert asyncio.run(_read(url)) == (seats, owners, chat)
    assert seats["open_a"] == [("p1", None), (None, None), ("p2", None)]
    # every seat of the running game is held; its second seat of p1 and its empty seat go
    # to bots; the taken-over seat keeps its player and bot
    assert seats["play_b"] == [("p1", None), (None, "normal"), (None, "normal"), ("p2", "random")]
    assert seats["open_c"] == [(None, None), ("p2", None), (None, None)]
    assert owners["open_c"] == "p2"
    assert "open_d" not in seats and "open_d" not in owners and chat == 0
    assert seats["done_e"] == [("p1", None), ("p2", None)]
    assert owners == {"open_a": "p1", "play_b": "p1", "open_c": "p2", "done_e": "p1"}
