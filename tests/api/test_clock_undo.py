"""Undo cannot refill a clock (issue 17.4).

A move and its undo put every seat's clock back where it stood before the move: in real
time the bank as it was, counting since the seat became due (so its deadline is the same);
in async the same deadline. The time that passed meanwhile keeps counting against the seat
to move. Time is a fake clock the test moves forward (no sleeping, no wall-clock asserts);
the clocks are read back from the database between moves as well as from the cache, so the
undo point lives with the table, not in one process.
"""

from __future__ import annotations

import time as real_time
from typing import Any

import httpx
import pytest

import app.tables.service as service_module
from tests.api.test_turn_features import PASS, _table, _undo
from tests.support.client import new_player
from tests.support.live import LiveServer


class FakeTime:
    """Stands in for the ``time`` module of the table service: ``time()`` is set by the test."""

    def __init__(self) -> None:
        self.now = real_time.time()

    def time(self) -> float:
        return self.now

    def __getattr__(self, name: str) -> Any:
        return getattr(real_time, name)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    fake = FakeTime()
    monkeypatch.setattr(service_module, "time", fake)
    return fake


def _clocks(state: dict[str, Any]) -> list[dict[str, Any]]:
    seats: list[dict[str, Any]] = state["clock"]["seats"]
    return seats


@pytest.mark.parametrize(
    "time_control",
    [
        {"clock": "realtime", "bank_seconds": 3600, "increment_seconds": 30},
        {"clock": "async", "move_seconds": 86_400},
    ],
    ids=["realtime", "async"],
)
def test_move_and_undo_never_give_a_seat_time(
    http: httpx.Client, live: LiveServer, clock: FakeTime, time_control: dict[str, Any]
) -> None:
    tid, (a, b) = _table(
        [new_player(http, "Ana"), new_player(http, "Ben")], time_control=time_control
    )
    sa, sb = a.state(tid)["seat"], b.state(tid)["seat"]
    clock.now += 20  # Ana has been thinking for a while
    before = a.state(tid)
    assert before["to_act"] == [sa]
    start = _clocks(before)
    assert start[sa]["running"] and not start[sb]["running"]
    deadline = start[sa]["deadline"]
    version = before["version"]
    for round_ in range(4):
        clock.now += 100  # she thinks, then moves ...
        moved = a.act(tid, version, PASS)
        assert moved.status_code == 200, moved.text
        assert moved.json()["to_act"] == [sb]
        if round_ % 2:
            # Another instance (or a restart) answers the undo: only the database knows.
            live.service().invalidate(tid)
        clock.now += 50  # ... and takes it back a little later
        r = _undo(a, tid, moved.json()["version"])
        assert r.status_code == 200, r.text
        version = r.json()["version"]
        for state in (r.json(), a.state(tid), b.state(tid)):
            seats = _clocks(state)
            # Ana's deadline is the one she had before her move, and the time since counts.
            assert seats[sa]["running"] and seats[sa]["deadline"] == deadline
            assert abs(seats[sa]["seconds_left"] - (deadline - clock.now)) <= 0.1
            assert seats[sa]["seconds_left"] < start[sa]["seconds_left"]
            # Ben's clock is as it was: not running, nothing gained nor lost.
            assert seats[sb] == start[sb]
    # The game goes on from the restored clocks: her next move is charged all of that time.
    clock.now += 10
    moved = a.act(tid, version, PASS)
    assert moved.status_code == 200, moved.text
    if time_control["clock"] == "realtime":
        left = _clocks(moved.json())[sa]["seconds_left"]
        assert abs(left - (deadline - clock.now + time_control["increment_seconds"])) <= 0.1
