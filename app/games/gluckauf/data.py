"""Components of Glück Auf (Coal Baron) as data tables (gluckauf.md §2-§3).

Everything the rules engine needs to know about the physical game lives here:
the 48 tunnel tiles (§3.2), the printed minecarts (§3.3), the 44 order cards
(§3.4), the worker spaces with their locks (§3.5), the shift scoring table
(§3.6) and the player-count parameters (§3.7). Tests check these tables against
the totals the spec states.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal, TypeAlias

Colour: TypeAlias = Literal["Y", "B", "G", "K"]
Transport: TypeAlias = Literal["W", "C", "T", "L"]
Side: TypeAlias = Literal["light", "dark"]
SpaceId: TypeAlias = Literal[
    "FACT-1",
    "FACT-2",
    "FACT-3",
    "FACT-4",
    "FACT-5",
    "FACT-6",
    "FACT-7",
    "FACT-8",
    "FACT-DRAW",
    "MINE-4",
    "MINE-6",
    "MINE-8",
    "MINE-10",
    "DELIV-W",
    "DELIV-C",
    "DELIV-T",
    "DELIV-L",
    "MONEY-3",
    "MONEY-4",
    "MONEY-5",
    "MONEY-6",
    "BANK",
    "ORDER-1",
    "ORDER-2",
    "ORDER-3",
    "ORDER-4",
    "ORDER-DRAW",
]
Group: TypeAlias = Literal["factory", "mining", "delivery", "money", "bank", "order"]

#: Colours in the fixed listing order Y, B, G, K (§11a).
COLOURS: tuple[Colour, ...] = ("Y", "B", "G", "K")
COLOUR_NAMES: dict[Colour, str] = {"Y": "yellow", "B": "brown", "G": "grey", "K": "black"}
#: Tunnel level of each colour and the value of one minecart in Marks (§3.1).
LEVEL_OF: dict[Colour, int] = {"Y": 1, "B": 2, "G": 3, "K": 4}
COLOUR_OF_LEVEL: dict[int, Colour] = {1: "Y", 2: "B", 3: "G", 4: "K"}
CART_VALUE: dict[Colour, int] = {"Y": 1, "B": 2, "G": 3, "K": 4}
#: Coal cubes in the box per colour (§2, decision 16).
CUBES_PER_COLOUR = 16
#: Capacity of the pit cage (§2, §7.3).
CAGE_CAPACITY = 5
TRANSPORTS: tuple[Transport, ...] = ("W", "C", "T", "L")
TRANSPORT_NAMES: dict[Transport, str] = {
    "W": "wheelbarrow",
    "C": "carriage",
    "T": "truck",
    "L": "locomotive",
}


# --------------------------------------------------------------------------- tiles (§3.2)


@dataclass(frozen=True, slots=True)
class Tile:
    """One physical tunnel tile: ``id`` 0-47 is its canonical pre-shuffle position."""

    id: int
    type_id: str
    colour: Colour
    carts: int
    side: Side

    @property
    def level(self) -> int:
        return LEVEL_OF[self.colour]

    @property
    def cost(self) -> int:
        return self.carts * CART_VALUE[self.colour]


def _build_tiles() -> tuple[Tile, ...]:
    tiles: list[Tile] = []
    for side, letter in (("dark", "D"), ("light", "L")):
        for colour in COLOURS:
            for carts in (1, 2):
                for _ in range(3):
                    tiles.append(
                        Tile(len(tiles), f"{colour}{carts}{letter}", colour, carts, side)  # type: ignore[arg-type]
                    )
    return tuple(tiles)


#: All 48 tiles, index = physical id (Y1D = 0..2, Y2D = 3..5, ..., K2L = 45..47).
TILES: tuple[Tile, ...] = _build_tiles()


@dataclass(frozen=True, slots=True)
class PrintedCart:
    """The minecart printed on every pit at one level (§3.3); starts with 1 cube."""

    level: int
    colour: Colour
    side: Side


PRINTED_CARTS: tuple[PrintedCart, ...] = (
    PrintedCart(1, "Y", "dark"),
    PrintedCart(2, "B", "light"),
    PrintedCart(3, "G", "light"),
    PrintedCart(4, "K", "dark"),
)


# --------------------------------------------------------------------------- orders (§3.4)


@dataclass(frozen=True, slots=True)
class OrderCard:
    """One order card: ``id`` 0-43 is its canonical position, ``code`` the printed id (W01...)."""

    id: int
    code: str
    transport: Transport
    spots: tuple[Colour, ...]
    vp: int


_ORDER_ROWS: tuple[tuple[str, str, int], ...] = (
    ("W01", "Y", 2),
    ("W02", "B", 3),
    ("W03", "YY", 3),
    ("W04", "G", 4),
    ("W05", "K", 5),
    ("W06", "BB", 5),
    ("W07", "BBB", 7),
    ("W08", "GG", 7),
    ("W09", "KK", 9),
    ("W10", "GGG", 9),
    ("W11", "YBGK", 10),
    ("T01", "Y", 2),
    ("T02", "YY", 3),
    ("T03", "B", 3),
    ("T04", "YYY", 4),
    ("T05", "G", 4),
    ("T06", "BB", 5),
    ("T07", "K", 5),
    ("T08", "GG", 7),
    ("T09", "KK", 9),
    ("T10", "YBGK", 10),
    ("T11", "KKK", 12),
    ("C01", "Y", 2),
    ("C02", "YY", 3),
    ("C03", "B", 3),
    ("C04", "YYY", 4),
    ("C05", "G", 4),
    ("C06", "K", 5),
    ("C07", "BB", 5),
    ("C08", "GG", 7),
    ("C09", "KK", 9),
    ("C10", "YBGK", 10),
    ("C11", "KKK", 12),
    ("L01", "Y", 2),
    ("L02", "B", 3),
    ("L03", "YY", 3),
    ("L04", "G", 4),
    ("L05", "BB", 5),
    ("L06", "K", 5),
    ("L07", "BBB", 7),
    ("L08", "GG", 7),
    ("L09", "GGG", 9),
    ("L10", "KK", 9),
    ("L11", "YBGK", 10),
)

#: All 44 order cards, index = canonical id (W01 = 0 ... L11 = 43).
ORDERS: tuple[OrderCard, ...] = tuple(
    OrderCard(i, code, code[0], tuple(spots), vp)  # type: ignore[arg-type]
    for i, (code, spots, vp) in enumerate(_ORDER_ROWS)
)
ORDER_BY_CODE: dict[str, OrderCard] = {o.code: o for o in ORDERS}


# --------------------------------------------------------------------------- spaces (§3.5)


@dataclass(frozen=True, slots=True)
class Space:
    """One worker space; ``lock`` is the printed lock marking ("2", "2+3" or None)."""

    id: SpaceId
    group: Group
    value: int  # mining steps / Marks; 0 where not meaningful
    transport: Transport | None
    lock: Literal["2", "2+3"] | None

    def open_for(self, n_players: int) -> bool:
        """Return whether the space is usable (not covered by a lock tile) with ``n_players``."""
        if self.lock == "2":
            return n_players >= 3
        if self.lock == "2+3":
            return n_players >= 4
        return True


#: Every worker space in the row order of table 3.5 (= the listing order of place_worker).
SPACES: tuple[Space, ...] = (
    Space("FACT-1", "factory", 0, None, None),
    Space("FACT-2", "factory", 0, None, None),
    Space("FACT-3", "factory", 0, None, None),
    Space("FACT-4", "factory", 0, None, "2"),
    Space("FACT-5", "factory", 0, None, None),
    Space("FACT-6", "factory", 0, None, None),
    Space("FACT-7", "factory", 0, None, None),
    Space("FACT-8", "factory", 0, None, "2+3"),
    Space("FACT-DRAW", "factory", 0, None, None),
    Space("MINE-4", "mining", 4, None, "2+3"),
    Space("MINE-6", "mining", 6, None, None),
    Space("MINE-8", "mining", 8, None, "2"),
    Space("MINE-10", "mining", 10, None, None),
    Space("DELIV-W", "delivery", 0, "W", None),
    Space("DELIV-C", "delivery", 0, "C", None),
    Space("DELIV-T", "delivery", 0, "T", None),
    Space("DELIV-L", "delivery", 0, "L", None),
    Space("MONEY-3", "money", 3, None, "2+3"),
    Space("MONEY-4", "money", 4, None, None),
    Space("MONEY-5", "money", 5, None, "2"),
    Space("MONEY-6", "money", 6, None, None),
    Space("BANK", "bank", 1, None, None),
    Space("ORDER-1", "order", 0, None, "2"),
    Space("ORDER-2", "order", 0, None, None),
    Space("ORDER-3", "order", 0, None, None),
    Space("ORDER-4", "order", 0, None, None),
    Space("ORDER-DRAW", "order", 0, None, None),
)
SPACE_BY_ID: dict[str, Space] = {s.id: s for s in SPACES}
#: Factory tile spaces (they hold a tile) and order spaces (they hold a card).
TILE_SPACES: tuple[SpaceId, ...] = tuple(
    s.id for s in SPACES if s.group == "factory" and s.id != "FACT-DRAW"
)
ORDER_SPACES: tuple[SpaceId, ...] = tuple(
    s.id for s in SPACES if s.group == "order" and s.id != "ORDER-DRAW"
)
#: Spaces counted for the new starting player (§8.2, decision 7).
STARTING_PLAYER_SPACES: tuple[SpaceId, ...] = (*TILE_SPACES, "FACT-DRAW")
#: Lock tiles in the box (§2): 4 marked "2" and 3 marked "2+3".
LOCK_TILES = 7


@cache  # asked for on every placement; the answer is a tuple, so it can be shared
def open_spaces(n_players: int) -> tuple[Space, ...]:
    """Return the spaces usable with ``n_players`` (27 / 24 / 20 for 4 / 3 / 2)."""
    return tuple(s for s in SPACES if s.open_for(n_players))


# --------------------------------------------------------------------------- scoring (§3.6)


@dataclass(frozen=True, slots=True)
class Category:
    """One shift-scoring category: what is counted, the VP for 1st/2nd, from which shift."""

    number: int
    kind: Literal["colour", "transport", "empty"]
    key: str  # a Colour or a Transport
    first: int
    second: int
    from_shift: int


SCORING: tuple[Category, ...] = (
    Category(1, "colour", "Y", 2, 1, 1),
    Category(2, "colour", "B", 3, 1, 1),
    Category(3, "colour", "G", 4, 2, 1),
    Category(4, "colour", "K", 5, 2, 1),
    Category(5, "transport", "W", 6, 3, 2),
    Category(6, "transport", "C", 7, 3, 2),
    Category(7, "transport", "T", 8, 4, 2),
    Category(8, "transport", "L", 9, 4, 2),
    Category(9, "empty", "Y", 10, 5, 3),
    Category(10, "empty", "B", 11, 5, 3),
    Category(11, "empty", "G", 12, 6, 3),
    Category(12, "empty", "K", 13, 6, 3),
)


def categories_for_shift(shift: int) -> tuple[Category, ...]:
    """Return the categories scored after ``shift`` (4, 8, then 12; §8.1 step 2)."""
    return tuple(c for c in SCORING if c.from_shift <= shift)


# --------------------------------------------------------------------------- player counts (§3.7)


@dataclass(frozen=True, slots=True)
class PlayerCountParams:
    workers: int
    money: int
    draft_cards: int
    second_place: bool


PARAMS: dict[int, PlayerCountParams] = {
    2: PlayerCountParams(workers=18, money=10, draft_cards=7, second_place=False),
    3: PlayerCountParams(workers=15, money=9, draft_cards=10, second_place=True),
    4: PlayerCountParams(workers=13, money=8, draft_cards=13, second_place=True),
}
SHIFTS = 3
ORDERS_PER_PLAYER_IN_DRAFT = 3
DRAW_SIZE = 5
