"""A serving process keeps the collector's full passes out of its players' way: what lived
at start-up is frozen (never walked again), and young objects are collected every 50,000
allocations, not 700, so that a move's state, views and frames (alive until the table's next
move) are freed by reference counting before they are promoted, instead of filling the oldest
generation and forcing a full pass of 150-200 ms every few seconds with 1,000 sockets
connected (docs/BENCHMARKS.md, round two). No timing is asserted: the settings are."""

from __future__ import annotations

import gc
from pathlib import Path

from app.main import GC_THRESHOLDS
from tests.support.live import temporary_server


def test_a_serving_process_freezes_its_start_and_collects_young_objects_rarely(
    tmp_path: Path,
) -> None:
    before = gc.get_threshold()
    try:
        with temporary_server(tmp_path, "sqlite"):
            assert gc.get_threshold() == GC_THRESHOLDS
            assert gc.get_freeze_count() > 10_000  # the modules, schemas and engines' data
        young, middle, old = GC_THRESHOLDS
        assert young >= 10_000 and middle >= 10 and old >= 10
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()
