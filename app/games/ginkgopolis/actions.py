"""Ginkgopolis actions (rules §19c): one small model per decision point."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class DraftPick(_Action):
    """Keep one character of the draft pile you hold (§16.2)."""

    type: Literal["draft_pick"] = "draft_pick"
    character: str


class KeepHand(_Action):
    """Do not use a New Hand token this round (§6.1.0)."""

    type: Literal["keep_hand"] = "keep_hand"


class NewHand(_Action):
    """Spend a New Hand token: discard your hand and draw 4 new cards (§6.1.0, D6)."""

    type: Literal["new_hand"] = "new_hand"


class Select(_Action):
    """Secretly select one card and optionally one tile from behind your screen (§6.1.1, §7.0)."""

    type: Literal["select"] = "select"
    card: str
    tile: str | None = None


class Take(_Action):
    """Choose the item of an urbanization-card exploit (§7.1)."""

    type: Literal["take"] = "take"
    item: Literal["resource", "tile"]


class MoveToken(_Action):
    """Move the urbanization token to a cell ``[x, y]`` (§7.2 step 5, D2, D3)."""

    type: Literal["move_token"] = "move_token"
    cell: tuple[int, int]


class Contribute(_Action):
    """Secretly set one tile aside for the tile-supply refill (§10, D20)."""

    type: Literal["contribute"] = "contribute"
    tile: str


class ContributeDone(_Action):
    """Finish your refill contribution (§10, D20)."""

    type: Literal["contribute_done"] = "contribute_done"


Action = Annotated[
    DraftPick | KeepHand | NewHand | Select | Take | MoveToken | Contribute | ContributeDone,
    Field(discriminator="type"),
]

ActionModel = (
    DraftPick | KeepHand | NewHand | Select | Take | MoveToken | Contribute | ContributeDone
)
