"""One realistic instance of every Luz event type (for the description and parse tests).

Random and bot games emit most of these often, but ``high_end_chosen`` only with the
``manual_sort_direction`` option and ``first_player_passed`` only with left rotation,
so every type is listed here once, with data a real 3-player game could carry.
"""

from __future__ import annotations

from app.games.luz.events import (
    BetPlaced,
    CardPlayed,
    DealRow,
    DealScored,
    DealStarted,
    FirstPlayerPassed,
    GameEnded,
    HandBacks,
    HandsDealt,
    HandShown,
    HighEndChosen,
    LuzEvent,
    Play,
    SlotBack,
    SlotCard,
    TrickWon,
)

_HAND_0 = ("R1", "R6", "Y3", "Y8", "G2", "G5", "G7", "B4", "P1", "P6")  # luz-examples.md, ex. 1
_TRICK_2 = (
    Play(seat=2, slot=8, card="P4"),
    Play(seat=0, slot=8, card="P1"),
    Play(seat=1, slot=2, card="Y1"),
)

SAMPLES: list[LuzEvent] = [
    DealStarted(deal=1, first_player=0),
    HandsDealt(
        deal=1,
        hands=(
            HandBacks(
                seat=0,
                sorted_by=2,
                high_end="right",
                slots=tuple(SlotBack(slot=i, colour=c[0]) for i, c in enumerate(_HAND_0)),  # type: ignore[arg-type]
            ),
        ),
        undealt_count=10,
    ),
    HandShown(
        deal=1,
        seat=0,
        cards=tuple(SlotCard(slot=i, card=c) for i, c in enumerate(_HAND_0)),
        visible_to=frozenset({1, 2}),
    ),
    HighEndChosen(sorter=2, seat=0, side="left"),
    BetPlaced(seat=1, tricks=4, safety=True),
    CardPlayed(seat=1, slot=2, card="Y1", trick_no=2),
    TrickWon(seat=1, trick_no=2, cards=_TRICK_2),
    DealScored(
        deal=1,
        rows=(
            DealRow(seat=0, bet=2, safety=False, won=2, points=10, total=10),
            DealRow(seat=1, bet=4, safety=True, won=5, points=5, total=5),
            DealRow(seat=2, bet=1, safety=False, won=3, points=-10, total=-10),
        ),
    ),
    FirstPlayerPassed(from_seat=0, seat=1),
    GameEnded(
        scores=(60, 60, 35),
        ranking=(0, 1, 2),
        tiebreak="Seats 0 and 1 are tied on 60 points and share first place.",
    ),
]
