"""No bot level peeks: two states that differ only in what a seat may not see get the same
move from that seat's bot, at every level, through the question the server builds for it
(``app.tables.thinking.question_for``, the one way the server asks a bot for a move).

The twin of a real state is its seat's view dealt again (``determinize``): the same view,
other hands, decks and face-down cards. The test counts the twins that really differ, so
it cannot pass by only ever comparing a state with itself.
"""

from __future__ import annotations

import random

import pytest
from pydantic import BaseModel

from app.games import REGISTRY
from app.games.base import Engine, SearchBudget, dump
from app.tables.thinking import answer, question_for

GAMES = sorted(REGISTRY)
#: Enough searches to make real choices; no clock, so the machine's speed does not matter.
BUDGET = SearchBudget(iterations=10, seconds=600.0)
GAMES_PER_COUNT = 2
POINTS_PER_GAME = 3


def _hidden_and_public(state: BaseModel) -> dict[str, object]:
    """The state without its chance to come (a twin always has its own)."""
    return {k: v for k, v in dump(state).items() if k != "rng"}


def _positions(engine: Engine, n: int, seed: int) -> list[tuple[BaseModel, int]]:
    """A few positions of a game played by random moves, with the seat to act at each."""
    rng = random.Random(seed)
    state = engine.setup(n, seed, engine.Options())
    positions = []
    while engine.result(state) is None:
        seat = min(engine.to_act(state))
        legal = engine.legal_actions(state, seat)
        if len(legal) > 1 and rng.random() < 0.08 and len(positions) < POINTS_PER_GAME:
            positions.append((state, seat))
        state = engine.apply(state, seat, legal[rng.randrange(len(legal))]).state
    return positions


@pytest.mark.parametrize("game_id", GAMES)
def test_every_level_moves_alike_in_states_its_seat_cannot_tell_apart(game_id: str) -> None:
    engine = REGISTRY[game_id]
    info = engine.info
    compared = differing = 0
    for n in range(info.min_players, info.max_players + 1):
        for index in range(GAMES_PER_COUNT):
            seed = 7919 * n + index
            for state, seat in _positions(engine, n, seed):
                view = engine.view(state, seat)
                twin = engine.determinize(view, seat, random.Random(seed))
                assert engine.view(twin, seat) == view
                differing += _hidden_and_public(twin) != _hidden_and_public(state)
                for level in info.bot_levels:
                    asked = f"{seed}:{level}"
                    real = question_for(engine, state, seat, level, asked, BUDGET)
                    other = question_for(engine, twin, seat, level, asked, BUDGET)
                    assert real.legal_actions == other.legal_actions
                    assert answer(engine, real) == answer(engine, other), (n, seed, level)
                    compared += 1
    assert compared >= len(info.bot_levels) * (info.max_players - info.min_players + 1)
    # Most twins deal the hidden cards otherwise (a position with nothing hidden has none).
    assert differing * 2 > compared // len(info.bot_levels)
