"""Clock arithmetic of an undo (issue 17.4): a move and its undo never give a seat time."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.tables import clocks
from app.tables.clocks import TimeControl

REALTIME = TimeControl(clock="realtime", bank_seconds=600, increment_seconds=30)


def _deadline(tc: TimeControl, state: dict[str, object], seat: int) -> float | None:
    return clocks.deadline(tc, state, seat)  # type: ignore[arg-type]


@given(
    think=st.floats(0, 500),
    pause=st.floats(0, 500),
    legacy=st.booleans(),
    mode=st.sampled_from(["realtime", "async"]),
)
def test_an_undo_gives_back_no_time(think: float, pause: float, legacy: bool, mode: str) -> None:
    tc = TimeControl(clock=mode, bank_seconds=600, increment_seconds=30)  # type: ignore[arg-type]
    t0 = 1_000_000.0
    start = clocks.start_clocks(tc, 2, {0}, t0)
    moved_at = t0 + think
    after = clocks.after_move(tc, start, 0, {0}, {1}, moved_at)
    if not legacy:  # clocks written since undo points exist carry one
        after = clocks.with_undo_point(after, start, 3)
    elif mode == "async":
        return  # without an undo point an async seat's earlier due moment is unknown
    undone = clocks.after_undo(tc, after, 3, 0, {1}, {0}, moved_at + pause, moved_at)
    before = _deadline(tc, start, 0)
    assert before is not None
    restored = _deadline(tc, undone, 0)
    assert restored is not None and restored <= before + 1e-6
    if not legacy:
        assert undone == start  # exactly as before the move
    assert undone["due_since"][1] is None  # the other seat's clock stops again
    assert "undo" not in undone


def test_a_take_back_restarts_the_seat_in_the_undo_point_too() -> None:
    start = {"bank": [3.0, 600.0], "due_since": [None, 100.0]}
    after = clocks.with_undo_point({"bank": [3.0, 610.0], "due_since": [None, None]}, start, 7)
    restarted = clocks.restart_seat(after, 0, False, 200.0)
    assert restarted["bank"][0] == clocks.MIN_BANK_AFTER_TIMEOUT
    assert restarted["undo"]["bank"][0] == clocks.MIN_BANK_AFTER_TIMEOUT
    assert restarted["undo"]["due_since"] == [None, 100.0]
    undone = clocks.after_undo(REALTIME, restarted, 7, 1, set(), {1}, 250.0, 150.0)
    assert undone["bank"] == [clocks.MIN_BANK_AFTER_TIMEOUT, 600.0]
