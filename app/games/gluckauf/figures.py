"""Example positions for the "How to play" page (static/rules/gluckauf.*.html).

Every figure is a real position: one 3-player game set up from a fixed seed and played
by the engine's own rules, the seats choosing with the normal bot from a fixed
``random.Random`` except where a figure needs a particular legal choice (the draw-5).
Three players, so the pictures show the second place of the shift scoring; the option
``delivered_visible`` is on, so a figure can show every player's delivered orders (the
default table keeps them face down, §10).

The play-through runs once per process and is kept as JSON; each call rebuilds fresh
state objects from it, so nobody can alter a cached figure.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from functools import lru_cache

from app.games.base import Figure, Seat

from . import rules
from .actions import PlaceWorker, UnloadCube
from .bot import choose
from .rules import GluckaufOptions, GluckaufState
from .view import view

SEED = 2013  # the year Glück Auf was published
PLAYERS = 3
OPTIONS = GluckaufOptions(delivered_visible=True)

CAPTIONS: dict[str, str] = {
    "draft": "The opening draft: the seat to choose takes one of the face-up order cards.",
    "first_turn": "The first turn of shift 1: every space the starting player may take is "
    "highlighted.",
    "draw_tiles": "Draw 5 tiles: only the drawing player sees them; an affordable one may be "
    "kept, or none.",
    "mining": "Mining: the cage is at the surface with coal; each move of the cage or of a "
    "cube costs one work step.",
    "shift_end": "The last worker of shift 1: categories 1-4 are scored right after this turn.",
    "final": "The end of the game: the shift-3 scoring and the final scoring are done.",
}


def _bot_step(state: GluckaufState, rng: random.Random) -> GluckaufState:
    (seat,) = rules.to_act(state)
    legal = rules.legal_actions(state, seat)
    action = choose(view(state, seat), legal, rng)
    new, _ = rules.apply(state, seat, action)
    return new


@lru_cache(maxsize=1)
def _positions() -> dict[str, tuple[str, Seat | None]]:
    """Play the example game once; return each figure's state (as JSON) and seat."""
    rng = random.Random(SEED)
    found: dict[str, tuple[str, Seat | None]] = {}

    def keep(name: str, state: GluckaufState, seat: Seat | None) -> None:
        if name not in found:
            found[name] = (state.model_dump_json(), seat)

    state = rules.setup(PLAYERS, SEED, OPTIONS)
    keep("draft", state, state.active)
    while state.phase == "draft":
        state = _bot_step(state, rng)
    keep("first_turn", state, state.active)
    # The starting player opens with the draw-5 of tiles (a legal choice: the stack is full;
    # rules.apply would refuse it otherwise).
    seat = state.active
    state, _ = rules.apply(state, seat, PlaceWorker(space="FACT-DRAW"))
    keep("draw_tiles", state, seat)
    for _ in range(rules.max_length(PLAYERS)):
        if state.phase == "over":
            break
        (seat,) = rules.to_act(state)
        if state.phase == "mining" and state.players[seat].cage:
            legal = rules.legal_actions(state, seat)
            if sum(isinstance(x, UnloadCube) for x in legal) >= 2:
                keep("mining", state, seat)
        if (
            state.phase == "place"
            and state.shift == 1
            and sum(p.supply for p in state.players) == 1
        ):
            keep("shift_end", state, seat)
        state = _bot_step(state, rng)
    keep("final", state, None)
    return found


def _figure(name: str) -> Figure:
    raw, seat = _positions()[name]
    state = GluckaufState.model_validate(json.loads(raw))
    return Figure(state, seat, CAPTIONS[name])


def _maker(name: str) -> Callable[[], Figure]:
    return lambda: _figure(name)


FIGURES: dict[str, Callable[[], Figure]] = {name: _maker(name) for name in CAPTIONS}

__all__ = ["CAPTIONS", "FIGURES"]
