"""Luz bot levels: easy, normal and strong pick legal moves from the view alone, the strong
one deterministically for a seed and budget; ``evaluate`` gives each seat's prospects."""

from __future__ import annotations

import random

import pytest

from app.games.base import SearchBudget
from app.games.luz import ENGINE
from app.games.luz.bot import evaluate
from app.games.luz.rules import LuzOptions, LuzState

SMALL = SearchBudget(iterations=40, seconds=30.0)


def _game(n: int, seed: int, levels: list[str], budget: SearchBudget = SMALL) -> LuzState:
    state = ENGINE.setup(n, seed, LuzOptions())
    rngs = [random.Random(f"{seed}:{s}") for s in range(n)]
    while ENGINE.result(state) is None:
        seat = min(ENGINE.to_act(state))
        legal = ENGINE.legal_actions(state, seat)
        view = ENGINE.view(state, seat)
        action = ENGINE.bot(view, legal, rngs[seat], levels[seat], seat=seat, budget=budget)
        assert action in legal
        prospects = evaluate(state)
        assert len(prospects) == n and all(0.0 <= p <= 1.0 for p in prospects)
        state = ENGINE.apply(state, seat, action).state
    return state


def test_the_levels_are_offered() -> None:
    assert ENGINE.info.bot_levels == ("easy", "normal", "strong", "random")


@pytest.mark.parametrize("n", [3, 5])
def test_easy_and_normal_play_whole_games_with_legal_moves(n: int) -> None:
    _game(n, 4, ["easy", "normal", "easy", "normal", "easy"][:n])


def test_the_strong_bot_plays_legal_moves_and_repeats_itself_for_a_seed() -> None:
    state = ENGINE.setup(4, 9, LuzOptions())
    rng = random.Random(0)
    for _ in range(4 + 4 * 2 + 1):  # bets, two tricks, one card of the third
        seat = min(ENGINE.to_act(state))
        legal = ENGINE.legal_actions(state, seat)
        state = ENGINE.apply(state, seat, ENGINE.bot(ENGINE.view(state, seat), legal, rng)).state
    seat = min(ENGINE.to_act(state))
    legal = ENGINE.legal_actions(state, seat)
    view = ENGINE.view(state, seat)
    picks = {
        repr(ENGINE.bot(view, legal, random.Random(5), "strong", seat=seat, budget=SMALL))
        for _ in range(2)
    }
    assert len(picks) == 1
    assert ENGINE.bot(view, legal, random.Random(5), "strong", seat=seat, budget=SMALL) in legal


def test_evaluate_favours_the_leader_at_the_end() -> None:
    final = _game(3, 2, ["normal", "normal", "normal"])
    prospects = evaluate(final)
    best = max(range(3), key=lambda s: final.scores[s])
    if final.scores.count(final.scores[best]) == 1:
        assert prospects[best] == max(prospects) and prospects[best] > 0.5
    worst = min(range(3), key=lambda s: final.scores[s])
    if final.scores[worst] < final.scores[best]:
        assert prospects[worst] < 0.5


def test_evaluate_likes_a_bet_the_hand_can_make() -> None:
    state = ENGINE.setup(3, 1, LuzOptions(first_player=0))
    seat = 0
    view = ENGINE.view(state, seat)
    fair = ENGINE.bot(view, ENGINE.legal_actions(state, seat), random.Random(0), "normal")
    sensible = ENGINE.apply(state, seat, fair).state
    greedy = ENGINE.apply(
        state, seat, next(a for a in ENGINE.legal_actions(state, seat) if a.tricks == 10)
    ).state
    assert evaluate(sensible)[seat] > evaluate(greedy)[seat]
