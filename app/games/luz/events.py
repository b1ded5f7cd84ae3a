"""Luz events (rules §6, §7) and the small immutable records they share with the state.

Every event is past tense and carries ``visible_to``. Only :class:`HandShown` carries card
values of unplayed cards, and it is never visible to the seat holding them (§6).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Self, TypeAlias

from pydantic import BaseModel, ConfigDict, Field

from app.games.base import Event, Seat
from app.games.luz.data import Card, Colour, Side


class Record(BaseModel):
    """An immutable record; deep copies share it (it can never change)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Self:
        return self


class Play(Record):
    """One card played into a trick."""

    seat: Seat
    slot: int
    card: Card


class Trick(Record):
    """A completed trick of the current deal: number 1-10, leader, cards in play order, winner."""

    number: int
    leader: Seat
    plays: tuple[Play, ...]
    winner: Seat


class Bet(Record):
    """A placed bet: yellow beads (``tricks``) and the optional blue safety bead."""

    tricks: int
    safety: bool


class DealRow(Record):
    """One seat's line of a deal's score sheet (§5.7)."""

    seat: Seat
    bet: int
    safety: bool
    won: int
    points: int
    total: int


class SlotBack(Record):
    """The back of a card in a hand: its slot id and colour, never its value."""

    slot: int
    colour: Colour


class SlotCard(Record):
    """The face of a card in a hand: slot id and card."""

    slot: int
    card: Card


class HandBacks(Record):
    """A hand as its holder and spectators see it: colours in slot order and the "+" side."""

    seat: Seat
    sorted_by: Seat
    high_end: Side
    slots: tuple[SlotBack, ...]


# --------------------------------------------------------------------------- events


class DealStarted(Event):
    type: Literal["deal_started"] = "deal_started"
    deal: int
    first_player: Seat


class HandsDealt(Event):
    """Public: every hand's backs (colours, slot ids, high end) and the undealt count."""

    type: Literal["hands_dealt"] = "hands_dealt"
    deal: int
    hands: tuple[HandBacks, ...]
    undealt_count: int


class HandShown(Event):
    """The faces of one seat's hand, visible to every *other* seat (never its holder, never spectators)."""

    type: Literal["hand_shown"] = "hand_shown"
    deal: int
    seat: Seat
    cards: tuple[SlotCard, ...]


class HighEndChosen(Event):
    type: Literal["high_end_chosen"] = "high_end_chosen"
    sorter: Seat
    seat: Seat
    side: Side


class BetPlaced(Event):
    type: Literal["bet_placed"] = "bet_placed"
    seat: Seat
    tricks: int
    safety: bool


class CardPlayed(Event):
    type: Literal["card_played"] = "card_played"
    seat: Seat
    slot: int
    card: Card
    trick_no: int


class TrickWon(Event):
    type: Literal["trick_won"] = "trick_won"
    seat: Seat
    trick_no: int
    cards: tuple[Play, ...]


class DealScored(Event):
    type: Literal["deal_scored"] = "deal_scored"
    deal: int
    rows: tuple[DealRow, ...]


class FirstPlayerPassed(Event):
    type: Literal["first_player_passed"] = "first_player_passed"
    from_seat: Seat
    seat: Seat


class GameEnded(Event):
    type: Literal["game_ended"] = "game_ended"
    scores: tuple[int, ...]
    ranking: tuple[Seat, ...]
    tiebreak: str


LuzEvent: TypeAlias = Annotated[
    DealStarted
    | HandsDealt
    | HandShown
    | HighEndChosen
    | BetPlaced
    | CardPlayed
    | TrickWon
    | DealScored
    | FirstPlayerPassed
    | GameEnded,
    Field(discriminator="type"),
]
"""Every Luz event, discriminated by ``type``: what ``parse_event`` rebuilds a stored event into."""
