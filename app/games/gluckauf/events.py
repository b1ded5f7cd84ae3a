"""Events of Glück Auf: what happened, in the past tense.

Public events carry nothing hidden (§10). The contents of a draw-5 and the order
in which items are returned travel only in events whose ``visible_to`` is the
acting seat (``ItemsSeen``, ``ItemsReturnedPrivately``). Deliveries and shift
scorings are public (decisions 32 and the §10 note).
"""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias, Union

from pydantic import Field

from app.games.base import Event

from .data import Colour, SpaceId, Transport

DrawKind = Literal["tile", "order"]


class FactoryLaidOut(Event):
    """Setup (§4 step 3): a tile from the top of the stack laid face up on each open
    factory space, by space. Tables started before this event logged one ``SpaceRefilled``
    per space instead."""

    type: Literal["factory_laid_out"] = "factory_laid_out"
    tiles: dict[SpaceId, int]


class StartingPlayerDrawn(Event):
    """Setup (§4 step 6): who starts shift 1, ``drawn`` at random (§11 step 3) or fixed
    by the host's option. Not a factory count (§8.2: ``StartingPlayerChosen``); tables
    started before this event logged a ``StartingPlayerChosen`` with no counts."""

    type: Literal["starting_player_drawn"] = "starting_player_drawn"
    seat: int
    drawn: bool


class DraftDisplayLaidOut(Event):
    """Setup (§4 step 7): the order cards of the draft display, face up, in id order."""

    type: Literal["draft_display_laid_out"] = "draft_display_laid_out"
    cards: list[int]


class OrderDrafted(Event):
    type: Literal["order_drafted"] = "order_drafted"
    seat: int
    card: int


class OrderSpacesFilled(Event):
    """End of the draft (§4 step 9): the leftover card and deck cards on the order spaces."""

    type: Literal["order_spaces_filled"] = "order_spaces_filled"
    cards: dict[str, int]


class WorkerPlaced(Event):
    type: Literal["worker_placed"] = "worker_placed"
    seat: int
    space: SpaceId
    count: int
    ousted_seat: int | None = None
    ousted_count: int = 0


class TileBought(Event):
    type: Literal["tile_bought"] = "tile_bought"
    seat: int
    tile: int
    cost: int
    cubes: list[Colour | None]


class CoalSubstituted(Event):
    """Supply shortage (§7.1 step 4): a cube of another colour went on a cart."""

    type: Literal["coal_substituted"] = "coal_substituted"
    seat: int
    tile: int
    colour: Colour | None


class ItemsDrawn(Event):
    """Public part of a draw-5: how many were drawn."""

    type: Literal["items_drawn"] = "items_drawn"
    seat: int
    kind: DrawKind
    count: int


class ItemsSeen(Event):
    """Private part of a draw-5: the drawn ids (visible to the acting seat only)."""

    type: Literal["items_seen"] = "items_seen"
    seat: int
    kind: DrawKind
    items: list[int]


class ItemKept(Event):
    type: Literal["item_kept"] = "item_kept"
    seat: int
    kind: DrawKind
    item: int | None


class ItemsReturned(Event):
    """Public: k items went back to the top or bottom."""

    type: Literal["items_returned"] = "items_returned"
    seat: int
    kind: DrawKind
    count: int
    end: Literal["top", "bottom"] | None


class ItemsReturnedPrivately(Event):
    """Private: the returned items in order, upper to lower."""

    type: Literal["items_returned_privately"] = "items_returned_privately"
    seat: int
    kind: DrawKind
    items: list[int]
    end: Literal["top", "bottom"] | None


class MoneyGained(Event):
    type: Literal["money_gained"] = "money_gained"
    seat: int
    amount: int


class OrderTaken(Event):
    type: Literal["order_taken"] = "order_taken"
    seat: int
    space: SpaceId
    card: int


class MiningStarted(Event):
    type: Literal["mining_started"] = "mining_started"
    seat: int
    steps: int


class CageMoved(Event):
    type: Literal["cage_moved"] = "cage_moved"
    seat: int
    from_level: int
    to_level: int
    steps_left: int


class CubeLoaded(Event):
    type: Literal["cube_loaded"] = "cube_loaded"
    seat: int
    level: int
    colour: Colour
    steps_left: int


class CubeUnloaded(Event):
    type: Literal["cube_unloaded"] = "cube_unloaded"
    seat: int
    order: int
    colour: Colour
    steps_left: int


class CubeStored(Event):
    type: Literal["cube_stored"] = "cube_stored"
    seat: int
    colour: Colour
    steps_left: int


class StoredCubePlaced(Event):
    type: Literal["stored_cube_placed"] = "stored_cube_placed"
    seat: int
    order: int
    colour: Colour
    steps_left: int


class TwoForOneStarted(Event):
    type: Literal["two_for_one_started"] = "two_for_one_started"
    seat: int
    order: int
    colour: Colour


class CubeAdded(Event):
    type: Literal["cube_added"] = "cube_added"
    seat: int
    source: Literal["cage", "storage"]
    colour: Colour
    steps_left: int


class MiningEnded(Event):
    type: Literal["mining_ended"] = "mining_ended"
    seat: int
    steps_lost: int


class OrdersDelivered(Event):
    type: Literal["orders_delivered"] = "orders_delivered"
    seat: int
    transport: Transport
    cards: list[int]
    vp: int


class SpaceRefilled(Event):
    type: Literal["space_refilled"] = "space_refilled"
    space: SpaceId
    item: int


class ShiftScored(Event):
    """§8.1: the reveal of every delivered pile, the counts and the VP per category."""

    type: Literal["shift_scored"] = "shift_scored"
    shift: int
    delivered: dict[int, list[int]]
    counts: dict[int, dict[int, int]]  # category number -> seat -> count
    awards: dict[int, dict[int, int]]  # category number -> seat -> VP
    totals: dict[int, int]  # seat -> VP gained


class StartingPlayerChosen(Event):
    type: Literal["starting_player_chosen"] = "starting_player_chosen"
    seat: int
    factory_workers: dict[int, int]


class ShiftStarted(Event):
    type: Literal["shift_started"] = "shift_started"
    shift: int
    starting_player: int


class FinalScored(Event):
    """§9 for one seat. The counts behind each step (all public: pits, money and orders are
    face up) default to None so events stored before they existed still parse."""

    type: Literal["final_scored"] = "final_scored"
    seat: int
    money_vp: int
    money_left: int
    coal_vp: int
    order_penalty: int
    imbalance_penalty: int
    total: int
    vp_before: int | None = None  # VP after the shift-3 scoring, before §9
    money: int | None = None  # Marks before converting 5s into VP
    cubes: int | None = None  # cubes owned anywhere (§9 step 2)
    light_tiles: int | None = None
    dark_tiles: int | None = None


class GameEnded(Event):
    """The end (§9). ``money_left`` (the tie-break) and ``places`` default to empty so older
    stored events still parse."""

    type: Literal["game_ended"] = "game_ended"
    scores: dict[int, int]
    ranking: list[int]
    tiebreak: str
    money_left: dict[int, int] = Field(default_factory=dict)
    places: dict[int, int] = Field(default_factory=dict)


AnyEvent = (
    FactoryLaidOut
    | StartingPlayerDrawn
    | DraftDisplayLaidOut
    | OrderDrafted
    | OrderSpacesFilled
    | WorkerPlaced
    | TileBought
    | CoalSubstituted
    | ItemsDrawn
    | ItemsSeen
    | ItemKept
    | ItemsReturned
    | ItemsReturnedPrivately
    | MoneyGained
    | OrderTaken
    | MiningStarted
    | CageMoved
    | CubeLoaded
    | CubeUnloaded
    | CubeStored
    | StoredCubePlaced
    | TwoForOneStarted
    | CubeAdded
    | MiningEnded
    | OrdersDelivered
    | SpaceRefilled
    | ShiftScored
    | StartingPlayerChosen
    | ShiftStarted
    | FinalScored
    | GameEnded
)


GluckaufEvent: TypeAlias = Annotated[
    Union[  # noqa: UP007 - a discriminated union needs the explicit Union form
        FactoryLaidOut,
        StartingPlayerDrawn,
        DraftDisplayLaidOut,
        OrderDrafted,
        OrderSpacesFilled,
        WorkerPlaced,
        TileBought,
        CoalSubstituted,
        ItemsDrawn,
        ItemsSeen,
        ItemKept,
        ItemsReturned,
        ItemsReturnedPrivately,
        MoneyGained,
        OrderTaken,
        MiningStarted,
        CageMoved,
        CubeLoaded,
        CubeUnloaded,
        CubeStored,
        StoredCubePlaced,
        TwoForOneStarted,
        CubeAdded,
        MiningEnded,
        OrdersDelivered,
        SpaceRefilled,
        ShiftScored,
        StartingPlayerChosen,
        ShiftStarted,
        FinalScored,
        GameEnded,
    ],
    Field(discriminator="type"),
]
"""Every event of the game, rebuilt from its stored JSON by ``app.games.base.parse_event``."""
