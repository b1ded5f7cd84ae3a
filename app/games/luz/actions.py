"""Luz actions (rules §7): frozen value objects joined in one discriminated union."""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field

from app.games.luz.data import Side


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ChooseHighEnd(_Action):
    """Only with ``manual_sort_direction``: pick the "+" side of the hand this seat sorted (§5.2)."""

    type: Literal["choose_high_end"] = "choose_high_end"
    side: Side = Field(description="end of the sorted hand that holds the higher values")


class PlaceBet(_Action):
    """Announce the exact number of tricks this seat will win, optionally with a safety bead (§5.5)."""

    type: Literal["place_bet"] = "place_bet"
    tricks: int = Field(description="tricks predicted, 0 to 10")
    safety: bool = Field(default=False, description="take the blue safety bead (bet or bet+1)")


class PlayCard(_Action):
    """Play the card in one slot of the own hand; the holder does not know its value (§5.6)."""

    type: Literal["play_card"] = "play_card"
    slot: int = Field(description="slot id (0-9) of a card still in the own hand")


LuzAction: TypeAlias = Annotated[ChooseHighEnd | PlaceBet | PlayCard, Field(discriminator="type")]
