"""Luz, the stained-glass trick-taking game where you see every hand but your own.

Exports :data:`ENGINE`, the one object the platform knows (``app.games.base.Engine``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel

from app.games.base import (
    Figure,
    GameInfo,
    Locale,
    Result,
    RulesError,
    Seat,
    Transition,
    random_bot,
)
from app.games.luz import bot as _bot
from app.games.luz import rules
from app.games.luz.actions import ChooseHighEnd, LuzAction, PlaceBet, PlayCard
from app.games.luz.data import DEALS, MAX_PLAYERS, MIN_PLAYERS
from app.games.luz.describe import describe as _describe
from app.games.luz.events import LuzEvent
from app.games.luz.figures import FIGURES
from app.games.luz.rules import LuzOptions, LuzState
from app.games.luz.view import LuzView
from app.games.luz.view import view as _view

__all__ = ["ENGINE", "LuzEngine", "LuzOptions", "LuzState", "LuzView"]


class LuzEngine:
    """The Luz engine: a thin facade over :mod:`rules`, :mod:`view`, :mod:`bot`, :mod:`describe`."""

    info = GameInfo(id="luz", title="Luz", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS)
    Options: type[BaseModel] = LuzOptions
    State: type[BaseModel] = LuzState
    Action: Any = LuzAction
    Event: Any = LuzEvent
    figures: Mapping[str, Callable[[], Figure]] = FIGURES

    def max_length(self, n_players: int) -> int:
        """At most 4 x (N bets + 10N plays + N sort choices) actions (§7)."""
        return DEALS * (n_players + 10 * n_players + n_players)

    def validate_options(self, options: BaseModel, n_players: int) -> None:
        """Raise InvalidOptions for a bad player count or a first player outside the table."""
        rules.validate_options(options, n_players)

    def setup(self, n_players: int, seed: int, options: BaseModel) -> LuzState:
        """Initial state, deal 1 dealt (first player drawn first if not fixed, §8)."""
        return rules.setup(n_players, seed, options)

    def to_act(self, state: BaseModel) -> frozenset[Seat]:
        return rules.to_act(_state(state))

    def legal_actions(self, state: BaseModel, seat: Seat) -> list[Any]:
        return list(rules.legal_actions(_state(state), seat))

    def apply(self, state: BaseModel, seat: Seat, action: Any) -> Transition:
        return rules.apply(_state(state), seat, action)

    def view(self, state: BaseModel, seat: Seat | None) -> LuzView:
        return _view(_state(state), seat)

    def result(self, state: BaseModel) -> Result | None:
        return rules.result(_state(state))

    def bot(
        self, view: BaseModel, legal_actions: list[Any], rng: random.Random, level: str = "normal"
    ) -> Any:
        """Level "random": a uniform legal action; "normal": the policy of :mod:`bot` (view only)."""
        if level == "random" or not isinstance(view, LuzView):
            return random_bot(legal_actions, rng)
        return _bot.choose(view, legal_actions, rng)

    def describe(self, item: BaseModel, locale: Locale = "en") -> str:
        return _describe(item, locale)

    def undoable(self, state: BaseModel, seat: Seat, action: Any) -> bool:
        """Only a bet may be taken back (see the comment per action type below)."""
        try:
            act = rules.parse_action(action)
        except RulesError:
            return False
        match act:
            case PlayCard():
                # Never: the card is turned face up, so its holder learns a value they could
                # not see (§5.6); the last card of a deal also scores it and shuffles the next.
                return False
            case ChooseHighEnd():
                # Never: the sorter chose while seeing the hand, so the side is a signal to its
                # holder about cards the holder cannot see (§5.2); a retry would send a second one.
                return False
            case PlaceBet():
                # A bet is an open announcement (§5.5): nothing hidden is turned, no chance is
                # drawn; the last bet only opens the trick phase. Checked on the real transition.
                return _reveals_nothing(_state(state), seat, act)
        return False


def _reveals_nothing(state: LuzState, seat: Seat, action: PlaceBet) -> bool:
    """The action is legal, every event it causes is public and the Rng drew nothing."""
    try:
        after, events = rules.apply(state, seat, action)
    except RulesError:
        return False
    return after.rng.draws == state.rng.draws and all(e.visible_to is None for e in events)


def _state(state: BaseModel) -> LuzState:
    if not isinstance(state, LuzState):
        raise TypeError(f"expected a LuzState, got {type(state).__name__}")
    return state


ENGINE = LuzEngine()
