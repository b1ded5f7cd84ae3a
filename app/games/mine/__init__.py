"""MINE! (Aurélien Assié, Arvelys): the engine object ``ENGINE`` (rules/mine.md)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel

from app.games.base import (
    Figure,
    GameInfo,
    IllegalAction,
    Locale,
    Result,
    RulesError,
    Seat,
    Transition,
    parse_action,
    random_bot,
)
from app.games.mine import rules
from app.games.mine.actions import Action, DiscardCard, PassTurn, PlaceCard
from app.games.mine.bot import choose
from app.games.mine.describe import describe as _describe
from app.games.mine.events import EventUnion
from app.games.mine.figures import FIGURES
from app.games.mine.rules import MineOptions, MineState
from app.games.mine.view import MineView
from app.games.mine.view import view as _view


class MineEngine:
    """The MINE! engine: a thin object over the pure functions of ``rules``."""

    info = GameInfo(id="mine", title="MINE!", min_players=2, max_players=6)
    Options: type[BaseModel] = MineOptions
    State: type[BaseModel] = MineState
    Action: Any = Action
    Event: Any = EventUnion
    figures: Mapping[str, Callable[[], Figure]] = FIGURES

    def max_length(self, n_players: int) -> int:
        return rules.max_length(n_players)

    def validate_options(self, options: BaseModel, n_players: int) -> None:
        rules.validate_options(_options(options), n_players)

    def setup(self, n_players: int, seed: int, options: BaseModel) -> MineState:
        return rules.setup(n_players, seed, _options(options))

    def to_act(self, state: BaseModel) -> frozenset[Seat]:
        return rules.to_act(_state(state))

    def legal_actions(self, state: BaseModel, seat: Seat) -> list[Any]:
        return list(rules.legal_actions(_state(state), seat))

    def apply(self, state: BaseModel, seat: Seat, action: Any) -> Transition:
        if not isinstance(action, BaseModel):
            try:
                action = parse_action(self, action)
            except ValueError as exc:
                raise IllegalAction(f"not a MINE! action: {action!r} ({exc})") from exc
        return rules.apply(_state(state), seat, action)

    def view(self, state: BaseModel, seat: Seat | None) -> MineView:
        return _view(_state(state), seat)

    def result(self, state: BaseModel) -> Result | None:
        return rules.result(_state(state))

    def bot(
        self, view: BaseModel, legal_actions: list[Any], rng: random.Random, level: str = "normal"
    ) -> Any:
        if level == "random":
            return random_bot(legal_actions, rng)
        assert isinstance(view, MineView)
        return choose(view, legal_actions, rng)

    def describe(self, item: BaseModel, locale: Locale = "en") -> str:
        return _describe(item, locale)

    def undoable(self, state: BaseModel, seat: Seat, action: Any) -> bool:
        """Whether ``seat`` may take ``action`` back right after taking it (see per type)."""
        s = _state(state)
        if isinstance(action, DiscardCard):
            # The card goes face up onto the discard pile (§5.9.4): everybody has seen it.
            # The last discard also runs clean-up and the next round's dummy draw (R4, R5).
            return False
        if not isinstance(action, PlaceCard | PassTurn):
            return False
        # A placement is face down and a pass shows nothing (§5.2, §8): both are undoable
        # while the placement phase goes on. The placement or pass that ends the phase starts
        # the resolution, which reveals every card, draws cards and may reshuffle (§5.3-5.9),
        # so it is not. The dummy's placements and auto-passes that follow in the same apply
        # are public and were planned at the start of the round (no chance drawn now).
        try:
            after, events = rules.apply(s, seat, action)
        except RulesError:
            return False
        return (
            after.rng.draws == s.rng.draws
            and after.phase == "placement"
            and after.round == s.round
            and all(e.visible_to is None for e in events)
        )


def _options(options: BaseModel) -> MineOptions:
    if isinstance(options, MineOptions):
        return options
    return MineOptions.model_validate(options.model_dump())


def _state(state: BaseModel) -> MineState:
    assert isinstance(state, MineState)
    return state


ENGINE = MineEngine()

__all__ = ["ENGINE", "MineEngine"]
