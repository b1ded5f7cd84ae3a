"""Ginkgopolis (Xavier Georges, Pearl Games 2012), 1-5 players, solo against Hal.

Exports ``ENGINE``, the one object the platform knows (``app.games.base.Engine``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel

from app.games.base import (
    Figure,
    GameInfo,
    IllegalAction,
    InvalidOptions,
    Locale,
    Result,
    Seat,
    Transition,
    random_bot,
)

from . import bot as _bot
from . import rules
from .actions import Action, ActionModel
from .describe import describe as _describe
from .events import EventUnion
from .figures import FIGURES
from .rules import GinkgopolisOptions, GinkgopolisState
from .undo import undoable as _undoable
from .view import GinkgopolisView
from .view import view as _view


class GinkgopolisEngine:
    """The Ginkgopolis engine (rules in ``shared/rules/ginkgopolis.md``)."""

    info = GameInfo(id="ginkgopolis", title="Ginkgopolis", min_players=1, max_players=5)
    Options: type[BaseModel] = GinkgopolisOptions
    State: type[BaseModel] = GinkgopolisState
    Action: Any = Action
    Event: Any = EventUnion
    figures: Mapping[str, Callable[[], Figure]] = FIGURES

    def max_length(self, n_players: int) -> int:
        return rules.max_length(n_players)

    def validate_options(self, options: BaseModel, n_players: int) -> None:
        if not isinstance(options, GinkgopolisOptions):
            raise InvalidOptions(
                "options must be a GinkgopolisOptions model", reason="ginkgopolis.not_options"
            )
        rules.validate_options(options, n_players)

    def setup(self, n_players: int, seed: int, options: BaseModel) -> GinkgopolisState:
        state: GinkgopolisState = self.start(n_players, seed, options).state
        return state

    def start(self, n_players: int, seed: int, options: BaseModel) -> Transition:
        if not isinstance(options, GinkgopolisOptions):
            raise InvalidOptions(
                "options must be a GinkgopolisOptions model", reason="ginkgopolis.not_options"
            )
        state, events = rules.start(n_players, seed, options)
        return Transition(state, events)

    def to_act(self, state: BaseModel) -> frozenset[Seat]:
        assert isinstance(state, GinkgopolisState)
        return rules.to_act(state)

    def legal_actions(self, state: BaseModel, seat: Seat) -> list[Any]:
        assert isinstance(state, GinkgopolisState)
        return list(rules.legal_actions(state, seat))

    def apply(self, state: BaseModel, seat: Seat, action: Any) -> Transition:
        assert isinstance(state, GinkgopolisState)
        if not isinstance(action, ActionModel):
            raise IllegalAction(
                f"not a Ginkgopolis action: {action!r}", "ginkgopolis.not_an_action"
            )
        new, events = rules.apply(state, seat, action)
        return Transition(new, events)

    def view(self, state: BaseModel, seat: Seat | None) -> GinkgopolisView:
        assert isinstance(state, GinkgopolisState)
        return _view(state, seat)

    def result(self, state: BaseModel) -> Result | None:
        assert isinstance(state, GinkgopolisState)
        return rules.result(state)

    def bot(
        self, view: BaseModel, legal_actions: list[Any], rng: random.Random, level: str = "normal"
    ) -> Any:
        if not legal_actions:
            raise IllegalAction("the bot was asked to act with no legal action", "no_legal_action")
        if level == "random" or not isinstance(view, GinkgopolisView):
            return random_bot(legal_actions, rng)
        return _bot.choose(view, legal_actions, rng)

    def describe(self, item: BaseModel, locale: Locale = "en") -> str:
        return _describe(item, locale)

    def undoable(self, state: BaseModel, seat: Seat, action: Any) -> bool:
        assert isinstance(state, GinkgopolisState)
        if not isinstance(action, ActionModel):
            return False
        return _undoable(state, seat, action)


ENGINE = GinkgopolisEngine()

__all__ = ["ENGINE", "GinkgopolisEngine"]
