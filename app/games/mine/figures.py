"""The example positions of the MINE! "How to play" page (static/rules/mine.*.html).

Every figure is a real game: ``setup`` from a fixed seed, then legal actions chosen here
(each checked against ``legal_actions``, so a rules change that makes one illegal fails
loudly instead of drawing a position the rules could not reach). The server shows only
``view(state, seat)`` of it. Directors 0, 1, 2… play colours c0, c1, c2… (red, blue,
green…, §2.4); their starting hands are fixed (§4.5): director k holds Miners 4k+1…4k+4 and
Pit builders 25+4k…28+4k.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from app.games.base import Figure, IllegalAction, Seat
from app.games.mine.actions import MineAction, PassTurn, PlaceCard
from app.games.mine.bot import choose
from app.games.mine.data import Location
from app.games.mine.rules import MineOptions, MineState, apply, legal_actions, setup, to_act
from app.games.mine.view import view

SEED = 2026
#: The bot game of the "final" figure: a seed whose end shows a tie broken by the stock (§6),
#: which is what the rules page's caption describes.
FINAL_SEED = 2033


def _place(card: int, location: Location, victim: int | None = None) -> PlaceCard:
    return PlaceCard(card=card, location=location, victim=victim)


def _play(state: MineState, moves: list[tuple[Seat, MineAction]]) -> MineState:
    """Apply each (seat, action), refusing any action that is not legal right then."""
    for seat, action in moves:
        if action not in legal_actions(state, seat):
            raise IllegalAction(
                f"figure move {action!r} of seat {seat} is not legal here", "mine.not_legal"
            )
        state = apply(state, seat, action).state
    return state


def _three(seed: int = SEED, **options: object) -> MineState:
    """Three seats (no dummy), Red (seat 0) holds the die in round 1."""
    return setup(3, seed, MineOptions(first_player=0, **options))


# Round 1 of the three-seat game, up to Red's third turn: raid stacks and guards are out.
_OPENING_MOVES: list[tuple[Seat, MineAction]] = [
    (0, _place(1, "shelter", 1)),  # Red opens a raid on Blue (colour card c1)
    (1, _place(29, "watchtower")),  # Blue guards with a Pit builder (DEF 2)
    (2, _place(9, "mine")),
    (0, _place(25, "watchtower")),
    (1, _place(5, "shelter", 0)),  # Blue raids Red back
    (2, _place(33, "mine")),  # a Pit builder at the Mine shores it against firedamp
]
# The rest of round 1: Red strengthens its raid, then everybody recruits.
_ROUND_ONE_REST: list[tuple[Seat, MineAction]] = [
    (0, _place(2, "shelter", 1)),  # joins the stack: ATK 2 + 2 = 4 against DEF 2
    (1, _place(6, "mine")),
    (2, _place(10, "shelter", 1)),  # Green raids Blue too: ATK 2 against DEF 2
    (0, _place(26, "recruitment")),
    (1, _place(30, "recruitment")),
    (2, _place(34, "recruitment")),  # the twelfth card: the round resolves
]


def opening() -> Figure:
    return Figure(
        _three(),
        0,
        "Round 1 of a three-player game: Red holds the die and places first",
    )


def placing() -> Figure:
    return Figure(
        _play(_three(), _OPENING_MOVES),
        0,
        "Mid-placement: raid stacks with their colour cards, guards and miners face down",
    )


def resolution() -> Figure:
    return Figure(
        _play(_three(), _OPENING_MOVES + _ROUND_ONE_REST),
        None,
        "Round 1 resolved: Red's raid on Blue took 2 coal, then the sales scored",
    )


def hand_limit() -> Figure:
    state = _play(
        _three(),
        [
            (0, _place(1, "recruitment")),
            (1, PassTurn()),
            (2, PassTurn()),
            (0, _place(2, "recruitment")),
            (0, _place(3, "recruitment")),  # 2 + REC 1 + 1 + 1 = 5 cards to draw
            (0, _place(4, "mine")),
        ],
    )
    # The others passed with 8 cards and draw the base 2 (§5.9.1): they discard after Red.
    return Figure(state, 0, "After recruiting 5 cards Red holds 9 and must discard one")


def dummy() -> Figure:
    state = _play(
        setup(2, SEED, MineOptions(first_player=0)),
        [
            (0, _place(1, "mine")),
            (1, _place(5, "mine")),
            (0, _place(2, "shelter", 2)),  # raid the dummy director
            (1, _place(29, "watchtower")),
        ],
    )
    return Figure(state, 0, "Two players and the dummy director, which places by a fixed method")


def variant() -> Figure:
    return Figure(
        setup(4, SEED, MineOptions(first_player=0, variant=True)),
        0,
        "Die-card variant: the round's card fixes the mine and sale maxima for everyone",
    )


def final() -> Figure:
    """A whole three-player game played by the table bot from a fixed random source."""
    state = _three(FINAL_SEED)
    rng = random.Random(FINAL_SEED)
    while to_act(state):
        (seat,) = to_act(state)
        legal = legal_actions(state, seat)
        action = choose(view(state, seat), legal, rng)
        state = apply(state, seat, action).state
    return Figure(state, None, "The end: the final ranking with its tie-breaks")


FIGURES: dict[str, Callable[[], Figure]] = {
    "opening": opening,
    "placing": placing,
    "resolution": resolution,
    "hand_limit": hand_limit,
    "dummy": dummy,
    "variant": variant,
    "final": final,
}

__all__ = ["FIGURES"]
