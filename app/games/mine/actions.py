"""MINE! actions: the three human decisions of rules/mine.md §10."""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field

from app.games.mine.data import Location


class PlaceCard(BaseModel):
    """Place one card from hand face down on a location of one's own board (§5.2).

    ``victim`` (a director number) is given for the Looters' Shelter only.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["place"] = "place"
    card: int
    location: Location
    victim: int | None = None


class PassTurn(BaseModel):
    """Pass: place nothing more this round (§5.2; a pass is final)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["pass"] = "pass"


class DiscardCard(BaseModel):
    """Discard one card face up during the hand-limit check (§5.9.4)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["discard"] = "discard"
    card: int


MineAction: TypeAlias = PlaceCard | PassTurn | DiscardCard
Action = Annotated[PlaceCard | PassTurn | DiscardCard, Field(discriminator="type")]
