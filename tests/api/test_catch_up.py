"""A table moved by another process (another worker or instance) is caught up from its row's
moving parts and the log lines since, without reading the whole table again: every seat's
picture and events then read exactly as after a full read."""

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


@pytest.mark.parametrize("backend", BACKENDS)
def test_moves_of_another_process_are_caught_up_as_a_full_read_would_show_them(
    backend: str, tmp_path: Path
) -> None:
    with temporary_server(tmp_path, backend) as live, httpx.Client(base_url=live.url) as http:
        a, b = new_player(http, "A"), new_player(http, "B")
        tid = make_table(a, "pick", 2, {"pile": 30})["id"]
        b.post(f"/api/v1/tables/{tid}/join")
        assert a.post(f"/api/v1/tables/{tid}/start").status_code == 200
        mover, state = acting([a, b], tid)
        assert mover.act(tid, state["version"], {"type": "take", "count": 1}).status_code == 200
        service = live.service()
        before = state["version"] + 1
        assert service._cache[tid].version == before

        async def elsewhere() -> int:
            """Two moves through a service of its own: another process's cache and writer."""
            other = TableService(
                service.sessionmaker, service.games, MemoryBroker(), service.settings
            )
            try:
                version = before
                for take in (2, 1):
                    snap = await other.snapshot(tid)
                    seat = snap.to_act()[0]
                    await other.moves.act_as_seat(
                        tid, seat, version, {"type": "take", "count": take}, f"x-{version}"
                    )
                    version += 1
                return version
            finally:
                await other.close()

        after = _run(live, elsewhere())
        assert service._cache[tid].version == before

        async def pictures(snap: Any) -> list[dict[str, Any]]:
            out = []
            for seat in (0, 1, None):
                await service.moves.check_undo(snap, seat)
                events = await service.history.events_since(snap, before, seat)
                out.append(service.presenter.picture(snap, seat, events=events))
            return out

        async def caught_up_and_full() -> tuple[Any, Any]:
            loads = service._load_row

            async def no_full_read(*_args: Any) -> Any:
                raise AssertionError("the catch-up read the whole table")

            service._load_row = no_full_read
            try:
                caught = await service.snapshot_at_least(tid, after)
            finally:
                service._load_row = loads
            seen = await pictures(caught)
            service.invalidate(tid)
            full = await service.snapshot(tid)
            return (caught.version, seen), (full.version, await pictures(full))

        caught, full = _run(live, caught_up_and_full())
        assert caught == full
        version, seen = caught
        assert version == after
        # Each seat sees both takes and its own secret draws; a watcher only the takes.
        assert [len(p["events"]) for p in seen] == [3, 3, 2]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_table_read_again_at_the_same_version_keeps_what_cannot_have_changed(
    backend: str, tmp_path: Path
) -> None:
    """A notice that a table's seats changed (a player came or went) reads it again; its
    parsed state, the state before the last move and who may take it back are kept, so no
    seat's picture waits for a re-play of the game to answer ``undoable``."""
    with temporary_server(tmp_path, backend) as live, httpx.Client(base_url=live.url) as http:
        a, b = new_player(http, "A"), new_player(http, "B")
        tid = make_table(a, "pick", 2)["id"]
        b.post(f"/api/v1/tables/{tid}/join")
        assert a.post(f"/api/v1/tables/{tid}/start").status_code == 200
        mover, state = acting([a, b], tid)
        assert mover.act(tid, state["version"], {"type": "pass_turn"}).status_code == 200
        service = live.service()

        async def read_again() -> tuple[Any, Any]:
            before = service._cache[tid]
            service.invalidate(tid)
            replays = service.history.replay_state

            async def no_replay(*_args: Any, **_kwargs: Any) -> Any:
                raise AssertionError("the state before the last move was re-played")

            service.history.replay_state = no_replay
            try:
                after = await service.snapshot(tid)
                for seat in (0, 1, None):
                    await service.moves.check_undo(after, seat)
            finally:
                service.history.replay_state = replays
            return before, after

        before, after = _run(live, read_again())
        assert after is not before and after.version == before.version
        assert after.state is before.state and after.previous == before.previous
        assert (after.undo_seat, after.undo) == (before.undo_seat, before.undo)
        assert after.renders.pictures == {} and after.renders.frames == {}
