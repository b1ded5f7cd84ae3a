"""What a read of the log answers is bounded by the version it says it is at.

A client counts the events it holds by the version of the answer that brought them (API.md:
``GET /log`` answers ``version`` and the events since ``since``; a frame carries its
version's events). The log is read after the table: a move committed between the two reads
must not ride along, or the client, told an older version, takes the move's events again
from its own frame (the log showed "ran out of time" twice). Held on both databases, for
the REST log and for the events a frame carries, with a move landing between the reads."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.realtime.broker import MemoryBroker
from app.tables.service import TableService
from tests.support.client import acting, make_table, new_player
from tests.support.databases import BACKENDS
from tests.support.live import LiveServer, temporary_server


def _run(live: LiveServer, coro: Any) -> Any:
    return asyncio.run_coroutine_threadsafe(coro, live.app.state.loop).result(timeout=60)


def _move_before_each_log_read(live: LiveServer, tid: str) -> list[int]:
    """Make the service's next log reads each find one more move committed first, by another
    process (a service of its own); the versions those moves made."""
    service = live.service()
    history = service.history
    read = history.log_records
    made: list[int] = []

    async def move_elsewhere() -> None:
        other = TableService(service.sessionmaker, service.games, MemoryBroker(), service.settings)
        try:
            snap = await other.snapshot(tid)
            seat = snap.to_act()[0]
            await other.moves.act_as_seat(
                tid, seat, snap.version, {"type": "take", "count": 1}, f"between-{snap.version}"
            )
            made.append(snap.version + 1)
        finally:
            await other.close()

    async def log_records_after_a_move(*args: Any, **kwargs: Any) -> Any:
        await move_elsewhere()
        return await read(*args, **kwargs)

    history.log_records = log_records_after_a_move  # type: ignore[method-assign]
    return made


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_read_of_the_log_carries_events_past_the_version_it_answers(
    backend: str, tmp_path: Path
) -> None:
    with temporary_server(tmp_path, backend) as live, httpx.Client(base_url=live.url) as http:
        a, b = new_player(http, "A"), new_player(http, "B")
        tid = make_table(a, "pick", 2, {"pile": 40})["id"]
        b.post(f"/api/v1/tables/{tid}/join")
        assert a.post(f"/api/v1/tables/{tid}/start").status_code == 200
        for _ in range(3):
            mover, state = acting([a, b], tid)
            assert mover.act(tid, state["version"], {"type": "take", "count": 1}).status_code == 200
        service = live.service()
        made = _move_before_each_log_read(live, tid)

        log = a.get(f"/api/v1/tables/{tid}/log", params={"since": 0}).json()
        assert made, "the log was read without a move landing first"
        assert log["events"], "the log is empty"
        assert all(e["version"] <= log["version"] for e in log["events"]), log

        async def frame_events() -> tuple[int, list[dict[str, Any]] | None]:
            snap = await service.snapshot(tid)
            snap.recent.clear()  # as after a restart: the frame's events come from the log
            return snap.version, await service.history.events_since(snap, 0, 0)

        version, events = _run(live, frame_events())
        assert len(made) == 2, "the frame's events were read without a move landing first"
        assert events, "no events"
        assert all(e["version"] <= version for e in events), (version, events)
