"""Example positions for the Luz "How to play" page.

Each figure is a real game: ``setup`` from a fixed seed, then legal actions chosen by the
"normal" bot from its own seat's view (a deterministic ``random.Random``), stopped at the
first moment that shows the point of the picture. Nothing is hand-built, so every picture
is a position the rules can reach. The server serves only ``view(state, seat)`` of them.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from app.games.base import Figure, Seat
from app.games.luz import bot as _bot
from app.games.luz import rules
from app.games.luz.data import TRUMP_COLOUR
from app.games.luz.rules import LuzOptions, LuzState
from app.games.luz.view import view

#: Table of the pictures: 4 players (values 1-10), seat 0 starts deal 1.
_PLAYERS = 4
_SEED = 2024
_OPTIONS = LuzOptions(first_player=0)


def _start(options: LuzOptions = _OPTIONS, seed: int = _SEED) -> LuzState:
    return rules.setup(_PLAYERS, seed, options)


def _play_until(
    state: LuzState, stop: Callable[[LuzState], bool], bot_seed: int = 1, limit: int = 400
) -> LuzState:
    """Let the bot play every seat until ``stop(state)`` holds (checked before each action)."""
    rng = random.Random(bot_seed)
    for _ in range(limit):
        if stop(state):
            return state
        seat = min(rules.to_act(state))
        legal = rules.legal_actions(state, seat)
        action = _bot.choose(view(state, seat), legal, rng)
        state = rules.apply(state, seat, action).state
    raise RuntimeError("the figure position was not reached (figures.py)")


def _to_act(state: LuzState) -> Seat:
    return min(rules.to_act(state))


def opening() -> Figure:
    """Deal 1 just dealt: seat 0 sees every hand but its own and is the first to bet."""
    state = _start()
    return Figure(state, 0, "Deal 1: you see every hand but your own, and you bet first.")


def betting() -> Figure:
    """The last bettor of deal 1, seeing the three bets already placed."""
    state = _play_until(_start(), lambda s: s.bets_placed == _PLAYERS - 1)
    return Figure(state, _to_act(state), "The last bettor sees the bets already placed.")


def _must_follow(state: LuzState) -> bool:
    """Someone holds two or more cards of the led colour and cards of two other colours."""
    if state.phase != "playing" or not state.trick:
        return False
    hand = [c for c in state.hands[_to_act(state)] if c is not None]
    led = state.trick[0].card[0]
    return sum(1 for c in hand if c[0] == led) >= 2 and len({c[0] for c in hand}) >= 3


def follow() -> Figure:
    """A seat holding the led colour: only its cards of that colour can be played."""
    state = _play_until(_start(), _must_follow)
    return Figure(state, _to_act(state), "You hold the led colour, so you must play one of it.")


def _can_trump(state: LuzState) -> bool:
    """Someone void in the led (non-yellow) colour who holds a yellow card."""
    if state.phase != "playing" or not state.trick:
        return False
    led = state.trick[0].card[0]
    hand = rules.hand_colours(state.hands[_to_act(state)])
    return led != TRUMP_COLOUR and led not in hand and TRUMP_COLOUR in hand


def void() -> Figure:
    """A seat without the led colour: any card may be played, a yellow one can win."""
    state = _play_until(_start(), _can_trump)
    return Figure(state, _to_act(state), "No card of the led colour: play any card, even yellow.")


def scored() -> Figure:
    """Deal 1 has been scored; deal 2 starts with the next first player betting."""
    state = _play_until(_start(), lambda s: s.deal == 2)
    return Figure(state, _to_act(state), "Deal 1 scored; deal 2 begins with a new first player.")


def high_end() -> Figure:
    """Option "choose the + side": the sorter decides where the high end of a hand goes."""
    state = _start(LuzOptions(first_player=0, manual_sort_direction=True))
    return Figure(state, 0, 'You sorted your left neighbour\'s hand: where does the "+" go?')


def end() -> Figure:
    """The end of the game: four deals scored, final totals."""
    state = _play_until(_start(), lambda s: s.phase == "finished", limit=1000)
    return Figure(state, 0, "After four deals the highest total wins.")


FIGURES: dict[str, Callable[[], Figure]] = {
    "opening": opening,
    "betting": betting,
    "follow": follow,
    "void": void,
    "scored": scored,
    "high_end": high_end,
    "end": end,
}
"""Figure name -> builder, in the order the rules page uses them."""
