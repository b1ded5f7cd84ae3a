"""The example positions of the "How to play" page (``ENGINE.figures``).

Every figure is a real game: ``setup`` from a fixed seed, then legal actions chosen by
the engine's own "normal" bot (fed only each seat's view, with a fixed random source),
stopped at the first position that shows what the page explains. Nothing is built by
hand, so every picture is a position the rules can reach.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from app.games.base import Figure

from . import bot as _bot
from .actions import Select
from .rules import GinkgopolisOptions, GinkgopolisState, legal_actions, setup, to_act
from .rules import apply as _apply
from .view import view as _view

#: Three players with the first-game character sets: the table the page describes.
SEED = 1
PLAYERS = 3

Predicate = Callable[[GinkgopolisState], bool]


def _game() -> Iterator[GinkgopolisState]:
    """Every position of the seeded game, from the setup to the final scoring."""
    state = setup(PLAYERS, SEED, GinkgopolisOptions())
    rng = random.Random(SEED)
    yield state
    while seats := to_act(state):
        seat = min(seats)
        legal = legal_actions(state, seat)
        state, _ = _apply(state, seat, _bot.choose(_view(state, seat), legal, rng))
        yield state


def _play(until: Predicate) -> GinkgopolisState:
    """The first position of the seeded game where ``until`` holds."""
    for state in _game():
        if until(state):
            return state
    raise RuntimeError("the figure's position never occurred in its seeded game")


def _seat0_decides(kind: str, options: int = 2) -> Predicate:
    def check(s: GinkgopolisState) -> bool:
        d = s.decision
        return (
            d is not None and d.kind == kind and d.seat == 0 and len(legal_actions(s, 0)) >= options
        )

    return check


def _build_up_offered(s: GinkgopolisState) -> bool:
    """Seat 0 selects in a grown city and may build up (a building card with a tile)."""
    if s.phase != "select" or s.round < 4 or 0 not in to_act(s):
        return False
    return any(
        isinstance(a, Select) and a.tile is not None and not a.card.startswith("U-")
        for a in legal_actions(s, 0)
    )


def _contribution(s: GinkgopolisState) -> bool:
    return s.phase == "contribute" and 0 in to_act(s)


def _selecting(s: GinkgopolisState) -> bool:
    return s.phase == "select" and 0 in to_act(s)


def _over(s: GinkgopolisState) -> bool:
    return s.phase == "over"


def new_hand() -> Figure:
    state = setup(PLAYERS, SEED, GinkgopolisOptions())
    return Figure(
        state,
        0,
        "Before choosing: keep your hand, or spend a New Hand token on four new cards.",
    )


def opening() -> Figure:
    return Figure(
        _play(_selecting),
        0,
        "Round 1: the nine starting buildings, the twelve lettered urbanization tokens "
        "around them, and your first choice of a card.",
    )


def selection() -> Figure:
    return Figure(
        _play(_build_up_offered),
        0,
        "A grown city: choose a card; played with a tile from behind your screen, "
        "a building card builds up on its building.",
    )


def take() -> Figure:
    return Figure(
        _play(_seat0_decides("take")),
        0,
        "An urbanization card played alone: take 1 resource or 1 tile.",
    )


def move_token() -> Figure:
    return Figure(
        _play(_seat0_decides("move_token")),
        0,
        "Just urbanized: move the lettered token to a free cell next to the new building.",
    )


def contribute() -> Figure:
    return Figure(
        _play(_contribution),
        0,
        "The tile supply ran out: everyone may give tiles to the new supply, 1 SP each.",
    )


def districts() -> Figure:
    last = None
    for state in _game():
        if _selecting(state):
            last = state
    if last is None:
        raise ValueError("the figure's game never reached a selection to show")
    return Figure(
        last,
        0,
        "The last round of the game: same-coloured neighbours form districts; the list "
        "of districts shows what each would score if the game ended now.",
    )


def final() -> Figure:
    return Figure(
        _play(_over),
        None,
        "The final scoring: SP from play, districts, end-game cards and New Hand tokens.",
    )


def draft() -> Figure:
    state = setup(PLAYERS, SEED, GinkgopolisOptions(characters="draft"))
    return Figure(
        state,
        0,
        "The character draft: keep one character of the four and pass the rest on.",
    )


def solo() -> Figure:
    state = setup(1, SEED, GinkgopolisOptions())
    return Figure(
        state,
        0,
        "The solo game: you against Hal, who builds with a face-down card every round.",
    )


FIGURES: dict[str, Callable[[], Figure]] = {
    "new_hand": new_hand,
    "opening": opening,
    "selection": selection,
    "take": take,
    "move_token": move_token,
    "contribute": contribute,
    "districts": districts,
    "final": final,
    "draft": draft,
    "solo": solo,
}
