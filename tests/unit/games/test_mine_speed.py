"""The shortcuts the MINE! engine takes for speed give what the slow ways give.

``fork`` copies a state for ``apply`` instead of dumping and validating it; events, reports
and placements are made without validation (app/games/trusted.py), the frequent events
shared; ``legal_actions`` lists each card's placements from a cache. Each is held here to
what it replaces, at every step of seeded games at every seat count, with and without the
dummy and the variant. (The golden and replay tests hold the whole engine to its old
behaviour; these name the part that broke.) ``view_json`` is held to the view model by
tests/unit/games/test_view_json.py.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel

from app.games.mine import ENGINE
from app.games.mine.actions import DiscardCard, PassTurn, PlaceCard
from app.games.mine.data import IS_EVENT
from app.games.mine.rules import MineOptions, MineState, clockwise_from_left, fork, to_act

GAMES = [
    (n, seed, options)
    for n in range(2, 7)
    for seed, options in [
        (n, MineOptions()),
        (10 + n, MineOptions(variant=True)),
        (20 + n, MineOptions(dummy=n < 6, variant=n % 2 == 0)),
    ]
]


def _steps(n: int, seed: int, options: MineOptions) -> Iterator[tuple[Any, list[Any]]]:
    """Every state of a random game, with the events that led to it."""
    state, events = ENGINE.start(n, seed, options)
    rng = random.Random(seed)
    yield state, list(events)
    while ENGINE.to_act(state):
        seat = min(ENGINE.to_act(state))
        legal = ENGINE.legal_actions(state, seat)
        state, events = ENGINE.apply(state, seat, legal[rng.randrange(len(legal))])
        yield state, list(events)


def _models(value: Any) -> Iterator[BaseModel]:
    """Every model within ``value`` (itself included), depth first."""
    if isinstance(value, BaseModel):
        yield value
        for field in value.__dict__.values():
            yield from _models(field)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _models(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _models(item)


def _as_validated(model: BaseModel) -> None:
    """``model`` is what its class makes, validating, of its fields' values: a frozen model
    (an event) of the fields it has set, others (the rules change them in place after
    making them) of all their fields."""
    frozen = model.model_config.get("frozen", False)
    names = model.model_fields_set if frozen else model.__dict__.keys()
    validated = type(model)(**{name: model.__dict__[name] for name in names})
    assert list(model.__dict__.items()) == list(validated.__dict__.items())
    assert model.__pydantic_extra__ is None and model.__pydantic_private__ is None
    assert repr(model) == repr(validated)
    if frozen:
        assert model.model_fields_set == validated.model_fields_set
        assert model.model_dump_json(exclude_unset=True) == validated.model_dump_json(
            exclude_unset=True
        )


def _same_tree(a: BaseModel, b: BaseModel) -> None:
    """Two models alike in every field, nested model and field marked as set."""
    models_a, models_b = list(_models(a)), list(_models(b))
    assert len(models_a) == len(models_b)
    for x, y in zip(models_a, models_b, strict=True):
        assert type(x) is type(y)
        assert list(x.__dict__) == list(y.__dict__)
        assert x.model_fields_set == y.model_fields_set
        assert x.__pydantic_extra__ is None and x.__pydantic_private__ is None
    assert a == b
    assert a.model_dump_json() == b.model_dump_json()
    assert a.model_dump_json(exclude_unset=True) == b.model_dump_json(exclude_unset=True)


def _changing_lists(state: MineState) -> Iterator[list[Any]]:
    """The lists of a state that the rules change in place."""
    yield from (state.draw_pile, state.discard_pile, state.die_pile, state.used_die_cards)
    yield state.dummy_plan
    for d in state.directors:
        yield d.hand
        yield d.placed


@pytest.mark.parametrize(("n", "seed", "options"), GAMES)
def test_a_fork_is_the_dump_validated_and_owns_what_the_rules_change(
    n: int, seed: int, options: MineOptions
) -> None:
    for state, _ in _steps(n, seed, options):
        before = state.model_dump_json(exclude_unset=True)
        copy = fork(state)
        _same_tree(copy, MineState.model_validate(state.model_dump()))
        for mine, theirs in zip(_changing_lists(copy), _changing_lists(state), strict=True):
            assert mine is not theirs
        assert all(a is not b for a, b in zip(copy.directors, state.directors, strict=True))
        assert state.model_dump_json(exclude_unset=True) == before


@pytest.mark.parametrize(("n", "seed", "options"), GAMES)
def test_apply_leaves_the_state_it_was_given_alone(n: int, seed: int, options: MineOptions) -> None:
    """What a fork shares (the report, which a discard copies before it counts, and the Rng,
    which a draw of chance copies first) is never changed in place: for every action of the
    game and a few other legal ones."""
    rng = random.Random(seed)
    for state, _ in _steps(n, seed, options):
        if not ENGINE.to_act(state):
            break
        seat = min(ENGINE.to_act(state))
        before = (state.model_dump_json(), state.model_dump_json(exclude_unset=True))
        legal = ENGINE.legal_actions(state, seat)
        for action in rng.sample(legal, min(3, len(legal))):
            ENGINE.apply(state, seat, action)
            assert (state.model_dump_json(), state.model_dump_json(exclude_unset=True)) == before


@pytest.mark.parametrize(("n", "seed", "options"), GAMES)
def test_what_apply_makes_unvalidated_is_what_validation_makes(
    n: int, seed: int, options: MineOptions
) -> None:
    for state, events in _steps(n, seed, options):
        for model in _models([state, events]):
            _as_validated(model)


def _legal_the_slow_way(state: MineState, seat: int) -> list[Any]:
    """legal_actions as it was written before its cache: every action built afresh."""
    if seat not in to_act(state):
        return []
    d = state.directors[seat]
    if state.phase == "discard":
        return [DiscardCard(card=c) for c in sorted(d.hand)]
    victims = clockwise_from_left(state.n_directors, seat)
    out: list[Any] = []
    for c in sorted(d.hand):
        if IS_EVENT[c]:
            out.append(PlaceCard(card=c, location="events", victim=None))
            continue
        out.extend(PlaceCard(card=c, location="shelter", victim=v) for v in victims)
        out.append(PlaceCard(card=c, location="watchtower", victim=None))
        out.append(PlaceCard(card=c, location="mine", victim=None))
        out.append(PlaceCard(card=c, location="recruitment", victim=None))
    out.append(PassTurn())
    return out


@pytest.mark.parametrize(("n", "seed", "options"), GAMES)
def test_legal_actions_are_those_built_afresh(n: int, seed: int, options: MineOptions) -> None:
    for state, _ in _steps(n, seed, options):
        for seat in range(n):
            fast = ENGINE.legal_actions(state, seat)
            slow = _legal_the_slow_way(state, seat)
            assert [a.model_dump_json() for a in fast] == [a.model_dump_json() for a in slow]
            assert fast == slow
            assert [a.model_fields_set for a in fast] == [a.model_fields_set for a in slow]
