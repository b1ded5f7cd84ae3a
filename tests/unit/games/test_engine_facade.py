"""Issue 19.1: one engine facade. Every game is the one generic adapter of app/games/base.py
over its own parts, and that adapter guards the public calls once for all of them."""

from __future__ import annotations

import random

import pytest
from pydantic import BaseModel

from app.games import REGISTRY
from app.games.base import Engine, GameEngine, IllegalAction, union_models


class Stranger(BaseModel):
    """A model of no game."""

    n: int = 0


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_every_registered_engine_is_the_one_generic_adapter(game: str) -> None:
    engine = REGISTRY[game]
    assert type(engine) is GameEngine
    assert isinstance(engine, Engine)


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_a_state_of_another_model_is_a_type_error_naming_the_expected_one(game: str) -> None:
    engine = REGISTRY[game]
    expected = engine.State.__name__
    for call in (
        lambda: engine.to_act(Stranger()),
        lambda: engine.legal_actions(Stranger(), 0),
        lambda: engine.apply(Stranger(), 0, {}),
        lambda: engine.view(Stranger(), None),
        lambda: engine.result(Stranger()),
        lambda: engine.undoable(Stranger(), 0, {}),
    ):
        with pytest.raises(TypeError, match=expected):
            call()
    # Another game's state is as foreign as a stranger's.
    other = next(e for e in REGISTRY.values() if e is not engine)
    foreign = other.setup(other.info.min_players or 2, 1, other.Options())
    with pytest.raises(TypeError, match=expected):
        engine.to_act(foreign)


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_options_and_views_of_another_model_are_type_errors(game: str) -> None:
    engine = REGISTRY[game]
    n = max(2, engine.info.min_players)
    with pytest.raises(TypeError, match=engine.Options.__name__):
        engine.validate_options(Stranger(), n)
    with pytest.raises(TypeError, match=engine.Options.__name__):
        engine.start(n, 1, Stranger())
    state = engine.setup(n, 1, engine.Options())
    seat = min(engine.to_act(state))
    legal = engine.legal_actions(state, seat)
    with pytest.raises(TypeError, match="View"):
        engine.bot(Stranger(), legal, random.Random(1), "normal")
    # The random level reads no view.
    assert engine.bot(Stranger(), legal, random.Random(1), "random") in legal
    with pytest.raises(IllegalAction):
        engine.bot(engine.view(state, seat), [], random.Random(1), "normal")


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_an_action_is_a_model_of_the_game_or_json_that_reads_as_one(game: str) -> None:
    engine = REGISTRY[game]
    n = max(2, engine.info.min_players)
    state = engine.setup(n, 1, engine.Options())
    seat = min(engine.to_act(state))
    action = engine.legal_actions(state, seat)[0]
    as_json = action.model_dump(mode="json")
    assert engine.apply(state, seat, as_json) == engine.apply(state, seat, action)
    with pytest.raises(IllegalAction) as refused:
        engine.apply(state, seat, {"type": "dance"})
    assert refused.value.reason == f"{game}.not_an_action"
    # Only a game's own models can have been taken, so only they can be taken back.
    assert engine.undoable(state, seat, as_json) is False
    assert type(action) in union_models(engine.Action)
