"""Seeded bot games, step by step, for the conformance and description tests.

Each step keeps the state before the action, the acting seat, its legal actions, the
chosen action and what ``apply`` answered, so a test can look at any of them without
knowing the game. Games are generated lazily: a long game is never held in memory.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, NamedTuple

from pydantic import BaseModel

from app.games.base import Engine, Rng


class Step(NamedTuple):
    state: Any
    seat: int
    legal: list[Any]
    action: Any
    next_state: Any
    events: list[Any]


def play_steps(
    engine: Engine, n: int, seed: int, level: str, options: BaseModel | None = None
) -> Iterator[Step]:
    """Play one game with ``level`` bots at every seat (the lowest seat to act moves first),
    with the game's default options unless ``options`` are given."""
    state = engine.setup(n, seed, engine.Options() if options is None else options)
    rng = random.Random(seed)
    for _ in range(engine.max_length(n) + 1):
        if engine.result(state) is not None:
            return
        seat = min(engine.to_act(state))
        legal = engine.legal_actions(state, seat)
        action = engine.bot(engine.view(state, seat), legal, rng, level)
        next_state, events = engine.apply(state, seat, action)
        yield Step(state, seat, legal, action, next_state, list(events))
        state = next_state
    raise AssertionError(f"{engine.info.id}: no end within max_length={engine.max_length(n)}")


def sample_games(engine: Engine, per_count: int = 2) -> Iterator[tuple[int, int, str]]:
    """(players, seed, level) for a handful of games: every player count, both bot levels."""
    for n in range(engine.info.min_players, engine.info.max_players + 1):
        for index in range(per_count):
            for level in ("normal", "random"):
                if level in engine.info.bot_levels:
                    yield n, 1000 * n + 17 * index + (level == "random"), level


def rngs_in(state: BaseModel) -> list[Rng]:
    """Every Rng of a state: an attribute, or an attribute of a model attribute (one level)."""
    found: list[Rng] = []
    for value in state.__dict__.values():
        if isinstance(value, Rng):
            found.append(value)
        elif isinstance(value, BaseModel):
            found.extend(v for v in value.__dict__.values() if isinstance(v, Rng))
    return found


def draws(state: BaseModel) -> tuple[tuple[int, int], ...]:
    """How far every Rng of the state has advanced (seed, draws)."""
    return tuple((r.seed, r.draws) for r in rngs_in(state))
