"""The results the table makes (app.tables.outcomes): resignations over an engine's result."""

from __future__ import annotations

from app.tables.outcomes import (
    cancelled_result,
    early_result,
    platform_text,
    resign_lines,
    with_resignations,
)

# Four seats: 2 and 3 tie for first, 0 is third, 1 is last.
ENGINE = {
    "scores": {"0": 5, "1": 2, "2": 9, "3": 9},
    "ranking": [2, 3, 0, 1],
    "places": {"2": 1, "3": 1, "0": 3, "1": 4},
    "tiebreak": "",
    "details": {},
}


def test_last_moves_the_resigned_seats_to_the_end_latest_first_and_keeps_the_ties() -> None:
    out = with_resignations(ENGINE, [3, 1], "last")
    # Seat 1 resigned after seat 3: it held on longer and ranks better among them.
    assert out["ranking"] == [2, 0, 1, 3]
    assert out["places"] == {"2": 1, "0": 2, "1": 3, "3": 4}
    assert out["scores"] == ENGINE["scores"] and out["resigned"] == [3, 1]
    out = with_resignations(ENGINE, [0], "last")
    assert out["ranking"] == [2, 3, 1, 0]
    assert out["places"] == {"2": 1, "3": 1, "1": 3, "0": 4}


def test_bot_keeps_the_engine_places_and_no_resignation_changes_nothing() -> None:
    out = with_resignations(ENGINE, [2], "bot")
    assert out["ranking"] == ENGINE["ranking"] and out["places"] == ENGINE["places"]
    assert out["resigned"] == [2] and out["on_resign"] == "bot"
    assert with_resignations(ENGINE, [], "last") is ENGINE


def test_early_end_and_cancel() -> None:
    out = early_result(3, [0, 2])
    assert out["ranking"] == [1, 2, 0] and out["places"] == {"1": 1, "2": 2, "0": 3}
    # Only bots left: they share first place.
    assert early_result(3, [1])["places"] == {"0": 1, "2": 1, "1": 3}
    assert cancelled_result()["ranking"] == [] and cancelled_result()["cancelled"] is True
    assert platform_text(cancelled_result(), "es") is not None
    assert platform_text(ENGINE, "en") is None
    assert resign_lines(out, "en") == []  # the early end says it all


def test_resign_lines_number_seats_from_one() -> None:
    out = with_resignations(ENGINE, [3, 1], "last")
    assert resign_lines(out, "en") == [
        "Seat 4 resigned and is ranked last.",
        "Seat 2 resigned and is ranked last.",
    ]
