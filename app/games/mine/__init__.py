"""MINE! (Aurélien Assié, Arvelys): the engine object ``ENGINE`` (rules/mine.md)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel

from app.games.base import (
    Event,
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
from app.games.mine.actions import Action, PlaceCard
from app.games.mine.bot import choose
from app.games.mine.describe import describe as _describe
from app.games.mine.events import CardPlaced, EventUnion
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
        state: MineState = self.start(n_players, seed, options).state
        return state

    def start(self, n_players: int, seed: int, options: BaseModel) -> Transition:
        """The initial state and round 1's start events (the same as every later round's)."""
        return rules.start(n_players, seed, _options(options))

    def to_act(self, state: BaseModel) -> frozenset[Seat]:
        return rules.to_act(_state(state))

    def legal_actions(self, state: BaseModel, seat: Seat) -> list[Any]:
        return list(rules.legal_actions(_state(state), seat))

    def apply(self, state: BaseModel, seat: Seat, action: Any) -> Transition:
        if not isinstance(action, BaseModel):
            try:
                action = parse_action(self, action)
            except ValueError as exc:
                raise IllegalAction(
                    f"not a MINE! action: {action!r} ({exc})", "mine.not_an_action"
                ) from exc
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
        """Whether ``seat`` may take ``action`` back right after taking it in ``state``.

        Undo never follows a revelation (base.Engine.undoable), so per action type:

        - ``discard``: never. The card goes face up onto the discard pile (§5.9.4), and the
          last discard also runs clean-up and the next round's start (the dummy's R4, R5).
        - ``pass``: never. A pass is final for the round (§5.2 Decision); taking it back would
          let a director wait, see what the others place, and come back into the round.
        - ``place``: only while it reveals nothing. The phase must stay placement (the card
          that closes it starts the resolution: every card shown, draws, reshuffles), no
          chance may be drawn, and every event must be the seat's own placement echo. Any
          event by or about another director means somebody moved after it or something was
          shown: above all the dummy, whose placements (and raid victims, drawn secretly at
          the round's start, R5) follow at once; taking the card back after seeing them
          would let a seat replay its turn knowing the dummy's answer. An empty-handed
          director's automatic pass is another director moving too.
        """
        if not isinstance(action, PlaceCard):
            return False
        s = _state(state)
        try:
            after, events = rules.apply(s, seat, action)
        except RulesError:
            return False
        return (
            after.phase == "placement"
            and after.round == s.round
            and after.rng.draws == s.rng.draws
            and all(_is_own_placement_echo(e, seat) for e in events)
        )


def _is_own_placement_echo(event: Event, seat: Seat) -> bool:
    """A public ``card_placed`` of ``seat`` itself: the one event a reversible placement makes."""
    return isinstance(event, CardPlaced) and event.director == seat and event.visible_to is None


def _options(options: BaseModel) -> MineOptions:
    if isinstance(options, MineOptions):
        return options
    return MineOptions.model_validate(options.model_dump())


def _state(state: BaseModel) -> MineState:
    assert isinstance(state, MineState)
    return state


ENGINE = MineEngine()

__all__ = ["ENGINE", "MineEngine"]
