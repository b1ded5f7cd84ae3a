"""The strong bot's search (app/games/search.py), over every game that determinizes."""

from __future__ import annotations

import random

import pytest

from app.games import REGISTRY, search
from app.games.base import Opponent, Result, SearchBudget, SearchStyle

BUDGET = SearchBudget(iterations=16, seconds=600.0)
STYLES = [SearchStyle(), SearchStyle(rollout_depth=4, rollout_level="normal", exploration=0.3)]


def test_a_shared_first_place_splits_the_win_with_automatic_opponents_too() -> None:
    alone = Result(scores={0: 9, 1: 5}, ranking=[0, 1], places={0: 1, 1: 2})
    assert search.win_shares(alone, 2) == [1.0, 0.0]
    tied = Result(scores={0: 9, 1: 9, 2: 1}, ranking=[0, 1, 2], places={0: 1, 1: 1, 2: 3})
    assert search.win_shares(tied, 3) == [0.5, 0.5, 0.0]
    hal = Opponent(id="hal", name="Hal", score=9, place=1)
    with_hal = Result(scores={0: 9}, ranking=[0], places={0: 1}, others=[hal])
    assert search.win_shares(with_hal, 1) == [0.5]
    lost = Result(scores={0: 3}, ranking=[0], places={0: 2}, others=[hal])
    assert search.win_shares(lost, 1) == [0.0]


@pytest.mark.parametrize("style", STYLES, ids=["random-playouts", "normal-playouts"])
@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_the_search_makes_a_legal_move_that_a_seed_and_budget_decide(
    game_id: str, style: SearchStyle
) -> None:
    engine = REGISTRY[game_id]
    n = max(2, engine.info.min_players)
    state = engine.setup(n, 11, engine.Options())
    rng = random.Random(11)
    searched = 0
    while engine.result(state) is None and searched < 3:
        seat = min(engine.to_act(state))
        legal = engine.legal_actions(state, seat)
        if len(legal) > 1 and rng.random() < 0.2:
            view = engine.view(state, seat)
            picks = [
                search.choose(engine, view, seat, legal, random.Random(5), BUDGET, style)  # type: ignore[arg-type]
                for _ in range(2)
            ]
            assert picks[0] in legal and picks[0] == picks[1]
            searched += 1
        state = engine.apply(state, seat, legal[rng.randrange(len(legal))]).state
    assert searched == 3
