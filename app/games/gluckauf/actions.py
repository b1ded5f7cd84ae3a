"""The actions of Glück Auf, exactly the contract of gluckauf.md §11a.

Every action is a frozen pydantic model discriminated by ``type``. Tiles are named
by their physical id (0-47, §3.2) and order cards by their canonical id (0-43,
§3.4; W01 = 0 ... L11 = 43); the view carries the catalogue of both.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias, Union

from pydantic import BaseModel, ConfigDict, Field

from .data import Colour, SpaceId


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class DraftOrder(_Action):
    """Opening draft (§4 step 8): take one card from the display."""

    type: Literal["draft_order"] = "draft_order"
    card: int


class PlaceWorker(_Action):
    """Start of a turn (§6): place 1, n + 1, or (BANK) 1 worker on a space."""

    type: Literal["place_worker"] = "place_worker"
    space: SpaceId


class ChooseCoal(_Action):
    """Supply shortage (§7.1 step 4): the substitute colour for the next cart."""

    type: Literal["choose_coal"] = "choose_coal"
    colour: Colour


class KeepItem(_Action):
    """Draw-5 (§7.2, §7.8): keep one drawn tile/card (``item``), or nothing (``None``)."""

    type: Literal["keep_item"] = "keep_item"
    item: int | None


class ChooseEnd(_Action):
    """Draw-5: return the other items to the top or to the bottom of the pile."""

    type: Literal["choose_end"] = "choose_end"
    end: Literal["top", "bottom"]


class ReturnItem(_Action):
    """Draw-5: the next returned item, upper to lower."""

    type: Literal["return_item"] = "return_item"
    item: int


class MoveCage(_Action):
    """Mining step (§7.3): move the cage to another level (0 = surface)."""

    type: Literal["move_cage"] = "move_cage"
    level: int


class LoadCube(_Action):
    """Mining step: load a cube of ``colour`` from a cart on the cage's level."""

    type: Literal["load_cube"] = "load_cube"
    colour: Colour


class UnloadCube(_Action):
    """Mining step: from the cage at the surface onto an empty spot of ``order``."""

    type: Literal["unload_cube"] = "unload_cube"
    order: int
    colour: Colour


class StoreCube(_Action):
    """Mining step: from the cage at the surface into private storage."""

    type: Literal["store_cube"] = "store_cube"
    colour: Colour


class PlaceStoredCube(_Action):
    """Mining step: from storage onto an empty spot of ``order`` (any cage level)."""

    type: Literal["place_stored_cube"] = "place_stored_cube"
    order: int
    colour: Colour


class StartTwoForOne(_Action):
    """Mining: announce a two-for-one on the leftmost empty ``colour`` spot of ``order``."""

    type: Literal["start_two_for_one"] = "start_two_for_one"
    order: int
    colour: Colour


class AddCube(_Action):
    """Mining: one of the two cubes of a two-for-one (1 step each)."""

    type: Literal["add_cube"] = "add_cube"
    source: Literal["cage", "storage"]
    colour: Colour


class StopMining(_Action):
    """Mining: end the action; unused steps are lost."""

    type: Literal["stop_mining"] = "stop_mining"


GluckaufAction: TypeAlias = Annotated[
    Union[  # noqa: UP007 - a discriminated union needs the explicit Union form
        DraftOrder,
        PlaceWorker,
        ChooseCoal,
        KeepItem,
        ChooseEnd,
        ReturnItem,
        MoveCage,
        LoadCube,
        UnloadCube,
        StoreCube,
        PlaceStoredCube,
        StartTwoForOne,
        AddCube,
        StopMining,
    ],
    Field(discriminator="type"),
]
Action = GluckaufAction

AnyAction: TypeAlias = (
    DraftOrder
    | PlaceWorker
    | ChooseCoal
    | KeepItem
    | ChooseEnd
    | ReturnItem
    | MoveCage
    | LoadCube
    | UnloadCube
    | StoreCube
    | PlaceStoredCube
    | StartTwoForOne
    | AddCube
    | StopMining
)
