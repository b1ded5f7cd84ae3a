"""The MINE! bot: legal, view-only, and the behaviours the issue asks for."""

from __future__ import annotations

import random

from app.games.mine import ENGINE
from app.games.mine.actions import PassTurn, PlaceCard
from app.games.mine.data import KIND
from app.games.mine.rules import MineOptions, MineState
from tests.unit.games.test_mine_examples import FIREDAMP, STRIKE, build


def _choice(state: MineState, seat: int) -> object:
    legal = ENGINE.legal_actions(state, seat)
    action = ENGINE.bot(ENGINE.view(state, seat), legal, random.Random(0))
    assert action in legal
    return action


def test_bot_protects_its_coal_against_a_visible_raid() -> None:
    # Round 2; seat 1 already has a two-card stack against seat 0, who holds 5 coal.
    state = build(
        3,
        round=2,
        die_holder=1,
        stocks=[5, 0, 0],
        all_passed=False,
        hands={0: [1, 2, 25, 52, 58], 1: [5], 2: [9]},
        placed={1: [(6, "shelter", 0), (7, "shelter", 0)]},
    )
    state.turn = 0
    action = _choice(state, 0)
    assert isinstance(action, PlaceCard) and action.location == "watchtower"


def test_bot_raids_a_rich_unguarded_neighbour_in_the_last_round() -> None:
    state = build(
        3,
        round=6,
        die_holder=0,
        stocks=[0, 6, 1],
        all_passed=False,
        hands={0: [1, 55, 25, 26], 1: [5], 2: [9]},
    )
    action = _choice(state, 0)
    assert isinstance(action, PlaceCard)
    assert (action.location, action.victim) == ("shelter", 1)


def test_bot_shores_its_mine_when_firedamp_is_likely() -> None:
    # Two event cards already lie on the others' Events; the bot mines with two miners.
    state = build(
        3,
        round=2,
        die_holder=0,
        stocks=[2, 2, 2],
        all_passed=False,
        hands={0: [1, 25, 52, 58], 1: [5], 2: [9]},
        placed={
            0: [(2, "mine"), (3, "mine")],
            1: [(FIREDAMP[0], "events")],
            2: [(STRIKE, "events")],
        },
    )
    action = _choice(state, 0)
    assert isinstance(action, PlaceCard)
    assert action.location == "mine" and KIND[action.card] == "pit_builder"


def test_bot_keeps_stock_near_the_sale_limit() -> None:
    # With 9 coal in stock in round 2 it has more than it can sell for two rounds: it does
    # not dig more; it guards or raids instead.
    state = build(
        2, round=2, die_holder=0, stocks=[9, 0], all_passed=False, hands={0: [1, 2, 25, 52], 1: [5]}
    )
    action = _choice(state, 0)
    assert not (isinstance(action, PlaceCard) and action.location == "mine")


def test_bot_passes_rather_than_waste_cards_in_the_last_round() -> None:
    state = build(
        2, round=6, die_holder=0, stocks=[0, 0], all_passed=False, hands={0: [1, 2, 25, 26], 1: [5]}
    )
    assert isinstance(_choice(state, 0), PassTurn)


def test_bot_beats_random_players() -> None:
    wins = 0
    for g in range(12):
        state = ENGINE.setup(4, 77 + g, MineOptions())
        rng = random.Random(g)
        bot_seat = g % 4
        while ENGINE.result(state) is None:
            (seat,) = ENGINE.to_act(state)
            legal = ENGINE.legal_actions(state, seat)
            level = "normal" if seat == bot_seat else "random"
            state, _ = ENGINE.apply(
                state, seat, ENGINE.bot(ENGINE.view(state, seat), legal, rng, level)
            )
        res = ENGINE.result(state)
        assert res is not None
        wins += res.places[bot_seat] == 1
    assert wins >= 8
