"""Which actions a seat may take back right after taking them (``ENGINE.undoable``): none.

Every Luz action is final (§9 "No takebacks"); the reason per action type is below. The
answer depends on neither the state nor the seat: no Luz action, legal or not, is ever
taken back, so nothing needs to be applied to find out.
"""

from __future__ import annotations

from typing import assert_never

from app.games.base import Refusal, Seat, final_because
from app.games.luz.actions import ChooseHighEnd, PlaceBet, PlayCard
from app.games.luz.rules import LuzState


def undoable(state: LuzState, seat: Seat, action: ChooseHighEnd | PlaceBet | PlayCard) -> bool:
    """Never: every Luz action is final (§9 "No takebacks")."""
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
        case _:
            assert_never(action)


def why_final(state: LuzState, seat: Seat, action: ChooseHighEnd | PlaceBet | PlayCard) -> Refusal:
    """The rule that makes each Luz action final, said when a take-back is refused: not
    "hidden information": a bet reveals nothing and draws nothing, it is simply final."""
    match action:
        case PlaceBet():
            return final_because(
                "a bet is final: bets cannot be changed once made, nor the safety bead "
                "added or removed (§5.5, §9)",
                "luz.bet_final",
            )
        case PlayCard():
            return final_because(
                "a played card is turned face up and is final (§5.6, §9)", "luz.card_final"
            )
        case ChooseHighEnd():
            return final_because(
                "the side of the high end is chosen once per deal and is final (§5.2, §9)",
                "luz.side_final",
            )
        case _:
            assert_never(action)
