"""Which actions a seat may take back right after taking them (``ENGINE.undoable``).

Glück Auf has no chance after setup (§11), so the only risk is hidden information: the
order of the tile stack and the order deck, the items of a draw-5, and the delivered piles
(shown at each shift scoring). The server adds that it is the seat's own last action and
that nobody acted since.
"""

from __future__ import annotations

from app.games.base import Event, RulesError, Seat

from . import actions as a
from . import events as ev
from . import rules
from .actions import AnyAction
from .rules import GluckaufState

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

    Per action type:

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
