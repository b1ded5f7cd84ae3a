"""Which actions a seat may take back right after taking them (``ENGINE.undoable``).

Undo never follows a revelation (``base.Engine.undoable``); the server adds that it is the
seat's own last action and that nobody acted since.
"""

from __future__ import annotations

from app.games.base import Event, RulesError, Seat
from app.games.mine import rules
from app.games.mine.actions import MineAction, PlaceCard
from app.games.mine.events import CardPlaced
from app.games.mine.rules import MineState


def undoable(state: MineState, seat: Seat, action: MineAction) -> bool:
    """Whether ``seat`` may take ``action`` back right after taking it in ``state``.

    Per action type:

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
    try:
        after, events = rules.apply(state, seat, action)
    except RulesError:
        return False
    return (
        after.phase == "placement"
        and after.round == state.round
        and after.rng.draws == state.rng.draws
        and all(_is_own_placement_echo(e, seat) for e in events)
    )


def _is_own_placement_echo(event: Event, seat: Seat) -> bool:
    """A public ``card_placed`` of ``seat`` itself: the one event a reversible placement makes."""
    return isinstance(event, CardPlaced) and event.director == seat and event.visible_to is None
