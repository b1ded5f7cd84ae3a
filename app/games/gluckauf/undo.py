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
# deck cards; a draw-5 shows its items to the drawer; the final scoring ends the game. A
# shift scoring reveals every delivered pile unless they are public (``delivered_visible``).
_REVEALING: tuple[type[Event], ...] = (
    ev.FactoryLaidOut,  # the setup's three: no action makes them
    ev.StartingPlayerDrawn,
    ev.DraftDisplayLaidOut,
    ev.SpaceRefilled,
    ev.OrderSpacesFilled,
    ev.ItemsDrawn,
    ev.ItemsSeen,
    ev.FinalScored,
    ev.GameEnded,
)


def _reveals(state: GluckaufState, seat: Seat, event: Event) -> bool:
    """Does ``event`` tell anybody something hidden? What the drawer put back, in the order
    it chose (``ItemsReturnedPrivately``, for its eyes only), it knew; the public rest of a
    draw-5 (nothing kept, how many went back to which end) hides nothing; the next starting
    player follows from the factory's workers (§8.2), all on the board."""
    if isinstance(event, ev.ItemsReturnedPrivately):
        return event.visible_to != frozenset({seat})
    if event.visible_to is not None or isinstance(event, _REVEALING):
        return True
    if isinstance(event, ev.ShiftScored):
        return not state.options.delivered_visible
    return False


def undoable(state: GluckaufState, seat: Seat, action: AnyAction) -> bool:
    """Whether taking ``action`` in ``state`` can be taken back without leaking anything.

    Per action type:

    - ``keep_item`` with an item: never. It settles the secret choice of a draw-5 and
      shows the others which item was kept. Keeping nothing shows nothing: yes, as below.
    - ``place_worker`` on FACT-DRAW / ORDER-DRAW: never; the drawer sees 5 hidden items.
    - ``place_worker`` elsewhere, ``draft_order``, ``choose_coal``: yes while the turn's
      effect stays public (a bought tile, money, a delivery, the start of mining), but not
      when the turn ends with a refill from the face-down stack or deck (a tile or order
      space emptied by it), the last draft pick (deck cards go onto the order spaces), the
      end of a shift while the delivered piles are hidden (the scoring reveals them), or
      the end of the game.
    - ``choose_end``, ``return_item``: yes, the step that puts the items back into the
      pile included: the drawer knows the order it chose, the others only how many went
      to which end; again not when the turn it ends refills a space or ends a shift as
      above.
    - mining steps (``move_cage``, ``load_cube``, ``unload_cube``, ``store_cube``,
      ``place_stored_cube``, ``start_two_for_one``, ``add_cube``, ``stop_mining``): yes,
      every pit and order is face up (§10), unless the step ends the turn into a refill or
      a shift scoring as above.
    """
    if isinstance(action, a.KeepItem) and action.item is not None:
        return False
    if isinstance(action, a.PlaceWorker) and action.space in ("FACT-DRAW", "ORDER-DRAW"):
        return False
    try:
        after, events = rules.apply(state, seat, action)
    except RulesError:
        return False
    if after.rng.draws != state.rng.draws:
        return False
    return not any(_reveals(state, seat, e) for e in events)
