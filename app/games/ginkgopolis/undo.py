"""Which actions a seat may take back right after taking them (``ENGINE.undoable``).

Taking an action back is safe only when applying it showed nobody anything hidden
(no card or tile drawn or revealed, no secret choice resolved, no private event) and
drew no chance (the state's Rng did not advance). The server adds that it is the
seat's own last action and that nobody acted since.
"""

from __future__ import annotations

from app.games.base import Event, RulesError, Seat

from .actions import (
    ActionModel,
    Contribute,
    ContributeDone,
    DraftPick,
    KeepHand,
    MoveToken,
    NewHand,
    Select,
    Take,
)
from .events import ChoiceCommitted, EndTriggered, ItemsGained, TokenMoved
from .rules import GinkgopolisState, apply


def _quiet(event: Event) -> bool:
    """An event that shows only what the public city and counts already show."""
    if event.visible_to is not None:
        return False
    if isinstance(event, ItemsGained):
        # A resource or SP comes from an open supply; a tile comes off the face-down supply.
        return event.tiles == 0
    return isinstance(event, (TokenMoved, ChoiceCommitted, EndTriggered))


def reveals_nothing(state: GinkgopolisState, seat: Seat, action: ActionModel) -> bool:
    """Apply the action on a copy: True if every event is quiet and no chance was drawn."""
    try:
        after, events = apply(state, seat, action)
    except RulesError:
        return False
    return (
        after.rng.draws == state.rng.draws
        and after.phase != "over"
        and all(_quiet(e) for e in events)
    )


def undoable(state: GinkgopolisState, seat: Seat, action: ActionModel) -> bool:
    """Whether ``seat`` may take ``action`` back right after taking it in ``state``."""
    if isinstance(action, (DraftPick, KeepHand, NewHand, Select)):
        # Secret simultaneous choices (§6.1, §16.2): each leaves a private record for its
        # seat, and the last one of the step resolves them all (piles pass, hands are drawn,
        # the selections are revealed one by one). Never taken back.
        return False
    if isinstance(action, Contribute):
        # §19c: a contributed tile is set aside secretly and cannot be taken back.
        return False
    if isinstance(action, ContributeDone):
        # Finishing while others still choose shows only "done" (§13): nothing to hide.
        # The last seat to finish reveals every contribution and shuffles the supply.
        return reveals_nothing(state, seat, action)
    if isinstance(action, (Take, MoveToken)):
        # The choice itself is public, but the resolution then runs on by itself: a tile
        # drawn, the next player's card revealed, the cards of the next round drawn. Only
        # when none of that happens before the next decision is it safe.
        return reveals_nothing(state, seat, action)
    return False
