"""Luz engine: protocol, options, errors, describe, and the bot (view-only, always legal)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from app.games.base import Engine, IllegalAction, InvalidOptions, NotYourTurn
from app.games.luz import ENGINE
from app.games.luz.actions import ChooseHighEnd, PlaceBet, PlayCard
from app.games.luz.bot import read, slot_distributions
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
    Play,
    SlotBack,
    SlotCard,
    TrickWon,
)
from app.games.luz.rules import LuzOptions, LuzState
from tests.unit.games.test_luz_builders import example1_deal, example3_bets, play_tricks


def test_engine_satisfies_the_protocol() -> None:
    assert isinstance(ENGINE, Engine)
    assert ENGINE.info.id == "luz"
    assert (ENGINE.info.min_players, ENGINE.info.max_players) == (3, 5)
    assert ENGINE.max_length(5) == 240
    assert ENGINE.Options is LuzOptions and ENGINE.State is LuzState
    assert LuzOptions() == LuzOptions(
        first_player=None,
        trump="yellow",
        safety_miss_from="bet",
        first_player_rotation="left",
        manual_sort_direction=False,
        strict_memory=False,
    )


@pytest.mark.parametrize("n", [0, 1, 2, 6, 7])
def test_player_counts_outside_three_to_five_are_rejected(n: int) -> None:
    with pytest.raises(InvalidOptions, match="3 to 5 players"):
        ENGINE.validate_options(LuzOptions(), n)
    with pytest.raises(InvalidOptions):
        ENGINE.setup(n, 1, LuzOptions())


def test_first_player_must_be_a_seat_of_the_table() -> None:
    with pytest.raises(InvalidOptions, match="first_player 3"):
        ENGINE.validate_options(LuzOptions(first_player=3), 3)
    ENGINE.validate_options(LuzOptions(first_player=4), 5)
    with pytest.raises(ValidationError):
        LuzOptions.model_validate({"jokers": True})


def test_wrong_phase_wrong_seat_and_bad_values_are_refused_with_the_rule() -> None:
    state = example1_deal()
    with pytest.raises(IllegalAction, match="betting phase"):
        ENGINE.apply(state, 0, PlayCard(slot=0))
    with pytest.raises(IllegalAction, match=r"0 to 10 tricks \(§5.5\)"):
        ENGINE.apply(state, 0, PlaceBet(tricks=11))
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, 2, PlaceBet(tricks=1))
    with pytest.raises(IllegalAction, match="not a Luz action"):
        ENGINE.apply(state, 0, {"type": "pass"})
    assert ENGINE.apply(state, 0, {"type": "place_bet", "tricks": 2, "safety": False}).state.bets[0]
    playing = example3_bets()
    with pytest.raises(IllegalAction, match="slots are 0 to 9"):
        ENGINE.apply(playing, 0, PlayCard(slot=10))
    after = ENGINE.apply(playing, 0, PlayCard(slot=9)).state
    after = ENGINE.apply(after, 1, PlayCard(slot=9)).state
    after = ENGINE.apply(after, 2, PlayCard(slot=9)).state
    with pytest.raises(IllegalAction, match="already played"):
        ENGINE.apply(after, 2, PlayCard(slot=9))


def _every_event_and_action() -> list[object]:
    play = Play(seat=0, slot=3, card="Y7")
    row = DealRow(seat=0, bet=2, safety=True, won=3, points=5, total=5)
    backs = HandBacks(seat=0, sorted_by=2, high_end="right", slots=(SlotBack(slot=0, colour="R"),))
    return [
        ChooseHighEnd(side="left"),
        PlaceBet(tricks=1, safety=True),
        PlayCard(slot=4),
        DealStarted(deal=1, first_player=0),
        HandsDealt(deal=1, hands=(backs,), undealt_count=10),
        HandShown(deal=1, seat=0, cards=(SlotCard(slot=0, card="R1"),), visible_to=frozenset({1})),
        HighEndChosen(sorter=2, seat=0, side="left"),
        BetPlaced(seat=0, tricks=0, safety=False),
        CardPlayed(seat=0, slot=3, card="Y7", trick_no=1),
        TrickWon(seat=0, trick_no=1, cards=(play,)),
        DealScored(deal=1, rows=(row,)),
        FirstPlayerPassed(from_seat=0, seat=1),
        GameEnded(scores=(60, 60, 35), ranking=(0, 1, 2), tiebreak="Seats 0 and 1 are tied."),
    ]


@pytest.mark.parametrize("item", _every_event_and_action(), ids=lambda i: type(i).__name__)
def test_every_action_and_event_is_described_in_both_languages(item: object) -> None:
    english = ENGINE.describe(item, "en")  # type: ignore[arg-type]
    spanish = ENGINE.describe(item, "es")  # type: ignore[arg-type]
    assert english and spanish and english != spanish


def test_bot_deduces_own_red_values_from_the_view() -> None:
    # Example 2: A's reds are two of {1, 5, 6}: (slot 0, slot 1) in {(1,5), (1,6), (5,6)}
    k = read(ENGINE.view(example1_deal(), 0))
    assert k.unseen["R"] == [1, 5, 6]
    dists = slot_distributions(k)
    assert dists[0] == [(1, pytest.approx(2 / 3)), (5, pytest.approx(1 / 3))]
    assert dists[1] == [(5, pytest.approx(1 / 3)), (6, pytest.approx(2 / 3))]
    # Example 13: after trick 2, B's remaining yellow is above its played Y1: Y4, Y5 or Y7
    state, _ = play_tricks(example3_bets(), 2)
    dists = slot_distributions(read(ENGINE.view(state, 1)))
    assert [v for v, _ in dists[3]] == [4, 5, 7]


def test_bot_decides_the_same_whatever_its_hidden_values() -> None:
    # swap A's R6 with the undealt R5: A's view is unchanged, so the bot's choice is too
    state = example1_deal()
    other = state.model_copy(deep=True)
    other.hands[0][1] = "R5"
    other.undealt[0] = "R6"
    assert ENGINE.view(state, 0) == ENGINE.view(other, 0)
    for bet_state in (state, other):
        action = ENGINE.bot(
            ENGINE.view(bet_state, 0), ENGINE.legal_actions(bet_state, 0), random.Random(1)
        )
        assert action == ENGINE.bot(
            ENGINE.view(state, 0), ENGINE.legal_actions(state, 0), random.Random(1)
        )


@pytest.mark.parametrize("n", [3, 4, 5])
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    manual=st.booleans(),
    strict=st.booleans(),
    no_trump=st.booleans(),
)
def test_bot_always_returns_a_legal_action(
    n: int, seed: int, manual: bool, strict: bool, no_trump: bool
) -> None:
    options = LuzOptions(
        manual_sort_direction=manual, strict_memory=strict, trump="none" if no_trump else "yellow"
    )
    state = ENGINE.setup(n, seed, options)
    rng = random.Random(seed)
    while ENGINE.result(state) is None:
        seat = min(ENGINE.to_act(state))
        legal = ENGINE.legal_actions(state, seat)
        action = ENGINE.bot(ENGINE.view(state, seat), legal, rng, "normal")
        assert action in legal
        state = ENGINE.apply(state, seat, action).state
    assert ENGINE.bot(ENGINE.view(state, 0), [PlayCard(slot=1)], rng, "random") == PlayCard(slot=1)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_start_is_the_setup_and_announces_deal_one(n: int) -> None:
    """``setup`` is ``start(...).state``; ``start`` also gives deal 1's events, which the old
    setup dropped: the first player, the public colours-only hands and each hand's values
    to every seat but its holder (§6, §10 decision 11)."""
    options = LuzOptions(manual_sort_direction=n == 4)
    state, events = ENGINE.start(n, 31, options)
    assert state.model_dump_json() == ENGINE.setup(n, 31, options).model_dump_json()
    assert [e.type for e in events] == ["deal_started", "hands_dealt", *["hand_shown"] * n]
    started, dealt, *shown = events
    assert isinstance(started, DealStarted) and isinstance(dealt, HandsDealt)
    assert (started.deal, started.first_player) == (1, state.first_player)
    assert started.visible_to is None and dealt.visible_to is None
    assert [h.high_end for h in dealt.hands] == state.high_end
    for seat, event in enumerate(shown):
        assert isinstance(event, HandShown) and event.seat == seat
        assert event.visible_to == frozenset(range(n)) - {seat}
        assert [c.card for c in event.cards] == state.hands[seat]
