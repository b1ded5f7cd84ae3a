"""Undo never follows a revelation, in every game (issue 16, point 1).

Random games at every seat count and with the options that change what is hidden. At
each step, when the engine says the action about to be taken is ``undoable``, the
action is applied again in *other worlds*: states the acting seat cannot tell from the
real one (its view is the same; what it may not see — other hands, face-down cards, the
dummy's plan, deck order, the future chance — is reshuffled, see tests/support/worlds.py).
If the events the seat sees, or its view afterwards, differ between worlds, the action
told the seat something hidden, and taking it back would let the seat act again knowing
it. So every undoable action must give the seat the same picture in every world.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.games import REGISTRY
from app.games.base import Engine, dump
from tests.support.worlds import other_worlds

# Options that change who moves after a seat or what is hidden (solo games at 1 seat).
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "luz": [{}, {"manual_sort_direction": True}],
    "mine": [{}, {"dummy": True}, {"dummy": True, "variant": True}, {"dummy": False}],
    "gluckauf": [{}, {"delivered_visible": True}],
    "ginkgopolis": [{}, {"characters": "draft"}],
}


def _seen(events: list[Any], seat: int) -> list[dict[str, Any]]:
    return [dump(e) for e in events if e.is_visible_to(seat)]


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_an_undoable_action_tells_its_seat_nothing_hidden(
    game_id: str, data: st.DataObject, seed: int
) -> None:
    engine: Engine = REGISTRY[game_id]
    info = engine.info
    n = data.draw(st.integers(info.min_players, info.max_players), label="players")
    options = data.draw(st.sampled_from(OPTIONS[game_id]), label="options")
    if n == 1:
        options = {}  # the solo game takes no other-player options
    if game_id == "mine" and n == 6:
        options = {k: v for k, v in options.items() if k != "dummy"}
    state = engine.setup(n, seed, engine.Options.model_validate(options))
    rng = random.Random(seed)
    checked = 0
    for _ in range(engine.max_length(n)):
        to_act = sorted(engine.to_act(state))
        if not to_act:
            break
        seat = rng.choice(to_act)
        action = rng.choice(engine.legal_actions(state, seat))
        after, events = engine.apply(state, seat, action)
        if engine.undoable(state, seat, action):
            checked += 1
            seen, view_after = _seen(events, seat), dump(engine.view(after, seat))
            for world in other_worlds(engine, state, seat, rng):
                world_after, world_events = engine.apply(world, seat, action)
                assert _seen(world_events, seat) == seen, (
                    f"{action!r} is undoable but its events depend on what seat {seat} cannot see"
                )
                assert dump(engine.view(world_after, seat)) == view_after, (
                    f"{action!r} is undoable but it shows seat {seat} something hidden"
                )
        state = after
    assert engine.result(state) is not None, "the game did not end"
    # Luz makes every action final (§5.5, §9): nothing there is ever undoable.
    if game_id == "luz":
        assert checked == 0
