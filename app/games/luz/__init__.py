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
from app.games.luz.memory import redact_log as _redact_log
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
        """Initial state, deal 1 dealt (first player drawn first if not fixed, §8).

        Always ``start(...).state``, whose events it leaves out.
        """
        return rules.setup(n_players, seed, options)

    def start(self, n_players: int, seed: int, options: BaseModel) -> Transition:
        """Initial state and deal 1's announcement, the same events as every later deal's."""
        return rules.start(n_players, seed, options)

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

    def redact_log(
        self, state: BaseModel, events: list[dict[str, Any]], seat: Seat | None
    ) -> list[dict[str, Any]]:
        """With ``strict_memory``, while the game runs: no older trick's cards (§6 note 2)."""
        return _redact_log(_state(state), events, seat)

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
        """Never: every Luz action is final (§9 "No takebacks"); the reason per type is below.

        The answer depends on neither the state nor the seat: no Luz action, legal or not,
        is ever taken back, so nothing needs to be applied to find out.
        """
        match action:
            case PlaceBet():
                # A bet is final once announced: "Bets cannot be changed once made" and the
                # safety bead "cannot be added or removed later" (§5.5, §9). It is public at
                # once, so the next bettor already bets knowing it.
                return False
            case PlayCard():
                # A played card is turned face up and is final (§5.6, §9): its holder learns a
                # value they could not see, and the last card of a deal scores it and shuffles
                # the next one.
                return False
            case ChooseHighEnd():
                # One choice per deal, made while seeing the hand (§5.2, §7): the side is a
                # signal to its holder about cards the holder cannot see; a retry would send
                # a second one.
                return False
        # Not a Luz action model (raw JSON or a stranger's): nothing to take back either.
        return False


def _state(state: BaseModel) -> LuzState:
    if not isinstance(state, LuzState):
        raise TypeError(f"expected a LuzState, got {type(state).__name__}")
    return state


ENGINE = LuzEngine()
