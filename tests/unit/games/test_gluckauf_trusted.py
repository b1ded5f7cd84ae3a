"""The models Glück Auf's rules make without validation are the models validation makes."""

from __future__ import annotations

import copy as stdlib_copy

import pytest
from pydantic import BaseModel

from app.games.gluckauf import rules
from app.games.gluckauf.rules import (
    DrawState,
    MiningState,
    Occupant,
    Outstanding,
    OwnedTile,
    ShortageState,
)
from app.games.trusted import copy, maker, put
from tests.unit.games.event_samples_gluckauf import SAMPLES


def _same(made: BaseModel, validated: BaseModel) -> None:
    assert type(made) is type(validated)
    assert list(made.__dict__.items()) == list(validated.__dict__.items())
    assert made.model_fields_set == validated.model_fields_set
    assert made.__pydantic_extra__ is None and made.__pydantic_private__ is None
    assert made == validated
    assert repr(made) == repr(validated)
    assert made.model_dump_json() == validated.model_dump_json()
    assert made.model_dump(exclude_unset=True) == validated.model_dump(exclude_unset=True)


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda e: e.type)
def test_a_made_event_is_the_validated_event(sample: BaseModel) -> None:
    given = {name: sample.__dict__[name] for name in sample.model_fields_set}
    _same(maker(type(sample))(**stdlib_copy.deepcopy(given)), sample)


@pytest.mark.parametrize(
    "model",
    [
        Occupant(seat=2, count=3),
        OwnedTile(tile=17, carts=["G", None]),
        Outstanding(card=10, spots=[[], ["B", "Y"], []]),
        DrawState(kind="tile", drawn=[4, 40, 2, 9, 30]),
        DrawState(kind="order", drawn=[4, 2], kept=4, kept_chosen=True, end="top", placed=[2]),
        ShortageState(tile_index=3, carts=[0, 1], then="draw"),
        MiningState(space="MINE-8", budget=8),
        MiningState(space="MINE-4", budget=2, tfo_order=7, tfo_colour="K", tfo_cubes=["Y"]),
    ],
    ids=lambda m: type(m).__name__,
)
def test_a_made_part_of_the_state_is_the_validated_part(model: BaseModel) -> None:
    given = {name: model.__dict__[name] for name in model.model_fields_set}
    made = maker(type(model))(**stdlib_copy.deepcopy(given))
    _same(made, model)
    for name, value in made.__dict__.items():
        if isinstance(value, list):  # a default list is the made model's own
            assert value is not model.__dict__[name]


def test_a_copy_is_a_model_copy_and_put_is_an_assignment() -> None:
    state = rules.setup(3, 5, rules.GluckaufOptions())
    _same(copy(state), state.model_copy())
    assigned, written = copy(state), copy(state)
    assigned.turns = 4
    put(written, "turns", 4)
    _same(written, assigned)
