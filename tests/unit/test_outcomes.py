"""The results the table makes (app.tables.outcomes): resignations over an engine's result."""

from __future__ import annotations

from app.games import REGISTRY
from app.games.base import Opponent
from app.tables.outcomes import (
    cancelled_result,
    early_result,
    platform_text,
    resign_lines,
    with_resignations,
)

LUZ, MINE = REGISTRY["luz"], REGISTRY["mine"]

# Four seats: 2 and 3 tie for first, 0 is third, 1 is last.
ENGINE = {
    "scores": {"0": 5, "1": 2, "2": 9, "3": 9},
    "ranking": [2, 3, 0, 1],
    "places": {"2": 1, "3": 1, "0": 3, "1": 4},
    "tiebreak": "",
    "details": {},
}


def test_last_moves_the_resigned_seats_to_the_end_latest_first_and_keeps_the_ties() -> None:
    out = with_resignations(ENGINE, [3, 1], "last", LUZ)
    # Seat 1 resigned after seat 3: it held on longer and ranks better among them.
    assert out["ranking"] == [2, 0, 1, 3]
    assert out["places"] == {"2": 1, "0": 2, "1": 3, "3": 4}
    assert out["scores"] == ENGINE["scores"] and out["resigned"] == [3, 1]
    out = with_resignations(ENGINE, [0], "last", LUZ)
    assert out["ranking"] == [2, 3, 1, 0]
    assert out["places"] == {"2": 1, "3": 1, "1": 3, "0": 4}


def test_bot_keeps_the_engine_places_and_no_resignation_changes_nothing() -> None:
    out = with_resignations(ENGINE, [2], "bot", LUZ)
    assert out["ranking"] == ENGINE["ranking"] and out["places"] == ENGINE["places"]
    assert out["resigned"] == [2] and out["on_resign"] == "bot"
    assert with_resignations(ENGINE, [], "last", LUZ) is ENGINE


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
    out = with_resignations(ENGINE, [3, 1], "last", LUZ)
    assert resign_lines(out, "en") == [
        "Seat 4 resigned and is ranked last.",
        "Seat 2 resigned and is ranked last.",
    ]


# Three seats and an automatic opponent (MINE!'s dummy): seat 0 first, the dummy second.
WITH_DUMMY = {
    "scores": {"0": 20, "1": 12, "2": 9},
    "ranking": [0, 1, 2],
    "places": {"0": 1, "1": 3, "2": 4},
    "tiebreak": "",
    "details": {},
    "others": [{"id": "dummy", "name": "Dummy director", "score": 15, "place": 2}],
}
HAL = Opponent(id="hal", name="Hal", score=7, place=2)


def test_a_resigned_seat_ranks_below_every_automatic_opponent() -> None:
    """The general rule (issue 34.6): with "last", a resigned seat ranks below every seat
    still in and every automatic opponent; the places of those still in stay distinct."""
    out = with_resignations(WITH_DUMMY, [0], "last", MINE)
    assert out["ranking"] == [1, 2, 0]
    assert out["places"] == {"1": 2, "2": 3, "0": 4}
    assert out["others"] == [{**WITH_DUMMY["others"][0], "place": 1}]  # type: ignore[index]
    everyone = sorted([*out["places"].values(), *(o["place"] for o in out["others"])])
    assert everyone == [1, 2, 3, 4]
    assert WITH_DUMMY["others"][0]["place"] == 2  # type: ignore[index]  # input unchanged


def test_a_solo_game_resigned_is_lost_to_the_automatic_opponent() -> None:
    out = early_result(1, [0], [HAL])
    assert out["ranking"] == [0] and out["places"] == {"0": 2}
    assert out["others"] == [{"id": "hal", "name": "Hal", "score": 7, "place": 1}]
    assert platform_text(out, "en") == "The game ended early: every player resigned."
    # With an opponent and a seat still in, both share first place.
    out = early_result(2, [1], [HAL])
    assert out["places"] == {"0": 1, "1": 3} and out["others"][0]["place"] == 1
    assert "others" not in early_result(2, [1])
