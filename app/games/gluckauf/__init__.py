"""Glück Auf (Coal Baron), Kramer & Kiesling: the rules engine (shared/rules/gluckauf.md)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel

from app.games.base import (
    Engine,
    Event,
    Figure,
    GameInfo,
    InvalidOptions,
    Locale,
    Result,
    RulesError,
    Seat,
    Transition,
    random_bot,
)

from . import actions as a
from . import events as ev
from . import rules
from .actions import Action, AnyAction
from .bot import choose
from .describe import describe as _describe
from .events import GluckaufEvent
from .figures import FIGURES
from .rules import GluckaufOptions, GluckaufState
from .view import GluckaufView
from .view import view as _view


class GluckaufEngine:
    """The Glück Auf engine object (satisfies ``app.games.base.Engine``)."""

    info: GameInfo = GameInfo(
        id="gluckauf", title="Glück Auf (Coal Baron)", min_players=2, max_players=4
    )
    Options: type[BaseModel] = GluckaufOptions
    State: type[BaseModel] = GluckaufState
    Action: Any = Action
    Event: Any = GluckaufEvent
    figures: Mapping[str, Callable[[], Figure]] = FIGURES

    def max_length(self, n_players: int) -> int:
        return rules.max_length(n_players)

    def validate_options(self, options: BaseModel, n_players: int) -> None:
        if not isinstance(options, GluckaufOptions):
            raise InvalidOptions(
                f"expected GluckaufOptions, got {type(options).__name__}",
                reason="gluckauf.not_options",
            )
        rules.validate_options(options, n_players)

    def setup(self, n_players: int, seed: int, options: BaseModel) -> GluckaufState:
        """The state after setup (§4), ready for the draft: ``start(...).state``."""
        state: GluckaufState = self.start(n_players, seed, options).state
        return state

    def start(self, n_players: int, seed: int, options: BaseModel) -> Transition:
        """The state after setup and its public events: the factory tiles laid out and the
        starting player (see :func:`rules.start`)."""
        self.validate_options(options, n_players)
        assert isinstance(options, GluckaufOptions)
        state, events = rules.start(n_players, seed, options)
        return Transition(state, events)

    def to_act(self, state: BaseModel) -> frozenset[Seat]:
        assert isinstance(state, GluckaufState)
        return rules.to_act(state)

    def legal_actions(self, state: BaseModel, seat: Seat) -> list[Any]:
        assert isinstance(state, GluckaufState)
        return rules.legal_actions(state, seat)

    def apply(self, state: BaseModel, seat: Seat, action: Any) -> Transition:
        assert isinstance(state, GluckaufState)
        new, events = rules.apply(state, seat, action)
        return Transition(new, events)

    def view(self, state: BaseModel, seat: Seat | None) -> GluckaufView:
        assert isinstance(state, GluckaufState)
        return _view(state, seat)

    def result(self, state: BaseModel) -> Result | None:
        assert isinstance(state, GluckaufState)
        return rules.result(state)

    def bot(
        self, view: BaseModel, legal_actions: list[Any], rng: random.Random, level: str = "normal"
    ) -> Any:
        if level == "random":
            return random_bot(legal_actions, rng)
        assert isinstance(view, GluckaufView)
        action: AnyAction = choose(view, legal_actions, rng)
        return action

    def describe(self, item: BaseModel, locale: Locale = "en") -> str:
        return _describe(item, locale)

    def undoable(self, state: BaseModel, seat: Seat, action: Any) -> bool:
        """Whether ``seat`` may take ``action`` back (see :func:`undoable`)."""
        assert isinstance(state, GluckaufState)
        return undoable(state, seat, action)


# Events that show something nobody (or not everybody) knew before the action: a refilled
# space turns up the top tile or card of a face-down pile; the end of the draft turns up
# deck cards; a draw-5 shows its items to the drawer and its outcome to the others; a shift
# scoring reveals every delivered pile; the final scoring ends the game.
_REVEALING: tuple[type[Event], ...] = (
    ev.SpaceRefilled,
    ev.OrderSpacesFilled,
    ev.ItemsDrawn,
    ev.ItemsSeen,
    ev.ItemKept,
    ev.ItemsReturned,
    ev.ItemsReturnedPrivately,
    ev.ShiftScored,
    ev.StartingPlayerChosen,
    ev.FinalScored,
    ev.GameEnded,
)


def undoable(state: GluckaufState, seat: Seat, action: AnyAction) -> bool:
    """Whether taking ``action`` in ``state`` can be taken back without leaking anything.

    Glück Auf has no chance after setup (§11), so the only risk is hidden information:
    the order of the tile stack and the order deck, the items of a draw-5, and the
    delivered piles (shown at each shift scoring). Per action type:

    - ``keep_item``: never. It settles the secret choice of a draw-5 and shows the others
      which item was kept (a redo would be a second look at the same secret draw).
    - ``place_worker`` on FACT-DRAW / ORDER-DRAW: never; the drawer sees 5 hidden items.
    - ``place_worker`` elsewhere, ``draft_order``, ``choose_coal``: yes while the turn's
      effect stays public (a bought tile, money, a delivery, the start of mining), but not
      when the turn ends with a refill from the face-down stack or deck (a tile or order
      space emptied by it), the last draft pick (deck cards go onto the order spaces) or
      the end of a shift (the delivered piles are revealed for the scoring).
    - ``choose_end``, ``return_item``: yes while returned items are still being ordered
      (the drawer already knows them all, nobody else learns anything); not for the step
      that puts them back into the pile, which settles the hidden order.
    - mining steps (``move_cage``, ``load_cube``, ``unload_cube``, ``store_cube``,
      ``place_stored_cube``, ``start_two_for_one``, ``add_cube``, ``stop_mining``): yes,
      every pit and order is face up (§10), unless the step ends the turn into a refill or
      a shift scoring as above.
    """
    if isinstance(action, a.KeepItem):
        return False
    if isinstance(action, a.PlaceWorker) and action.space in ("FACT-DRAW", "ORDER-DRAW"):
        return False
    try:
        after, events = rules.apply(state, seat, action)
    except RulesError:
        return False
    if after.rng.draws != state.rng.draws:
        return False
    return all(e.visible_to is None and not isinstance(e, _REVEALING) for e in events)


ENGINE = GluckaufEngine()
_PROTOCOL_CHECK: Engine = ENGINE  # mypy proves the engine satisfies the protocol

__all__ = ["ENGINE", "GluckaufEngine", "GluckaufOptions", "GluckaufState", "undoable"]
