"""The MINE! bot: legal, view-only, and the behaviours the issue asks for."""

from __future__ import annotations

import random

from app.games import search
from app.games.base import SearchBudget
from app.games.mine import ENGINE
from app.games.mine.actions import PassTurn, PlaceCard
from app.games.mine.bot import evaluate, projected_scores
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


# --------------------------------------------------------------------------- levels (issue 21)


def _play(n: int, seed: int, levels: list[str], options: MineOptions | None = None) -> MineState:
    state = ENGINE.setup(n, seed, options or MineOptions())
    rngs = [random.Random(f"{seed}:{s}") for s in range(n)]
    while ENGINE.result(state) is None:
        (seat,) = ENGINE.to_act(state)
        legal = ENGINE.legal_actions(state, seat)
        view = ENGINE.view(state, seat)
        if levels[seat] == "strong":  # the search, at a small budget
            budget = SearchBudget(iterations=12, seconds=60.0)
            action = search.choose(ENGINE, view, seat, legal, rngs[seat], budget)
        else:
            action = ENGINE.bot(view, legal, rngs[seat], levels[seat])
        assert action in legal
        state = ENGINE.apply(state, seat, action).state
    return state


def test_every_level_and_the_search_play_legal_moves_to_the_end() -> None:
    assert ENGINE.info.bot_levels == ("easy", "normal", "strong", "random")
    _play(2, 4, ["easy", "strong"])
    _play(3, 5, ["strong", "easy", "normal"], MineOptions(dummy=True, variant=True))


def test_easy_bot_beats_random_players() -> None:
    wins = 0.0
    for g in range(12):
        bot_seat = g % 3
        levels = ["easy" if s == bot_seat else "random" for s in range(3)]
        res = ENGINE.result(_play(3, 300 + g, levels))
        assert res is not None
        wins += res.places[bot_seat] == 1
    assert wins >= 7


def test_the_search_is_deterministic_for_a_seed_and_budget() -> None:
    state = build(
        3,
        round=2,
        die_holder=1,
        stocks=[5, 0, 2],
        all_passed=False,
        hands={0: [1, 2, 25, 52, 61], 1: [5], 2: [9]},
        placed={1: [(6, "shelter", 0)]},
    )
    state.turn = 0
    view, legal = ENGINE.view(state, 0), ENGINE.legal_actions(state, 0)
    budget = SearchBudget(iterations=40, seconds=60.0)
    picks = {search.choose(ENGINE, view, 0, legal, random.Random(9), budget) for _ in range(2)}
    assert len(picks) == 1 and picks <= set(legal)


def test_evaluate_gives_every_seat_a_prospect_and_favours_the_leader() -> None:
    state = build(
        3,
        dummy=True,
        round=4,
        die_holder=0,
        stocks=[3, 0, 1, 1],
        scores=[12, 5, 6, 6],
        all_passed=False,
        hands={0: [1, 2, 25], 1: [5, 6], 2: [9, 10], 3: [13, 14]},
    )
    prospects = evaluate(state)
    assert len(prospects) == 3 and all(0.0 <= p <= 1.0 for p in prospects)
    assert prospects[0] > 0.5 > prospects[1]
    # A finished game too: the winner's prospect is the best.
    final = _play(2, 6, ["normal", "normal"])
    res = ENGINE.result(final)
    assert res is not None
    prospects = evaluate(final)
    assert len(prospects) == 2 and all(0.0 <= p <= 1.0 for p in prospects)
    if res.places[0] != res.places[1]:
        assert prospects[res.ranking[0]] > prospects[res.ranking[1]]


def test_evaluate_settles_the_round_in_play_by_the_rules() -> None:
    # Seat 1's visible raid of three miners against an unguarded seat 0 holding 5 coal: the
    # round's resolution moves the coal, and the prospects with it.
    quiet = build(
        2,
        round=3,
        die_holder=0,
        stocks=[5, 0],
        scores=[6, 6],
        all_passed=False,
        hands={0: [1, 2], 1: [5, 6]},
    )
    raided = build(
        2,
        round=3,
        die_holder=0,
        stocks=[5, 0],
        scores=[6, 6],
        all_passed=False,
        hands={0: [1, 2], 1: [5]},
        placed={1: [(6, "shelter", 0), (7, "shelter", 0), (8, "shelter", 0)]},
    )
    assert projected_scores(raided)[1] > projected_scores(quiet)[1]
    assert evaluate(raided)[0] < evaluate(quiet)[0]
