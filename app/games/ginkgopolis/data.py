"""Ginkgopolis components as data (rules §3, §4).

Every card effect is a row of a table here; the rules code only interprets the
fields (``trigger``, ``reward``, ``rule``...), it never branches on a card id.

Identifiers (§2): tiles and building cards are ``"R7"``, ``"Y12"``, ``"B3"``;
urbanization cards ``"U-A"`` … ``"U-L"``; characters ``"C01"`` … ``"C27"``.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal, TypeAlias, TypeVar, get_args

Colour: TypeAlias = Literal["R", "Y", "B"]
Item: TypeAlias = Literal["resource", "sp", "tile"]
Trigger: TypeAlias = Literal["exploit", "urbanize", "build_up"]
Cell: TypeAlias = tuple[int, int]
T = TypeVar("T")

COLOURS: Final[tuple[Colour, ...]] = ("R", "Y", "B")
#: What a building of each colour produces (§1): red → resources, blue → tiles, yellow → SP.
ITEM_OF: Final[dict[str, Item]] = {"R": "resource", "Y": "sp", "B": "tile"}
TRIGGERS: Final[tuple[Trigger, ...]] = ("exploit", "urbanize", "build_up")

#: Player colours in seat order; seat 0 orange, seat 1 green, seat 2 black (examples), Hal natural wood.
PLAYER_COLOURS: Final[tuple[str, ...]] = ("orange", "green", "black", "pink", "natural")
HAL_COLOUR: Final[str] = "natural"

LETTERS: Final[tuple[str, ...]] = tuple("ABCDEFGHIJKL")
URBANIZATION_CARDS: Final[tuple[str, ...]] = tuple(f"U-{letter}" for letter in LETTERS)

#: Urbanization tokens at setup (§4.3), clockwise from above the top-left tile.
TOKEN_START: Final[dict[str, Cell]] = {
    "A": (-1, 2),
    "B": (0, 2),
    "C": (1, 2),
    "D": (2, 1),
    "E": (2, 0),
    "F": (2, -1),
    "G": (1, -2),
    "H": (0, -2),
    "I": (-1, -2),
    "J": (-2, -1),
    "K": (-2, 0),
    "L": (-2, 1),
}

#: The 9 starting cells, in the order the shuffled starting tiles are laid (§5.2).
START_CELLS: Final[tuple[Cell, ...]] = (
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (0, 0),
    (1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
)

#: All 60 tiles (§4.1) in canonical order (§14): R1…R20, Y1…Y20, B1…B20.
TILES: Final[tuple[str, ...]] = tuple(f"{c}{n}" for c in COLOURS for n in range(1, 21))
START_TILES: Final[tuple[str, ...]] = tuple(f"{c}{n}" for c in COLOURS for n in (1, 2, 3))
SUPPLY_TILES: Final[tuple[str, ...]] = tuple(t for t in TILES if t not in START_TILES)

#: The 21-card starting deck (§5.5) in canonical order.
START_DECK: Final[tuple[str, ...]] = URBANIZATION_CARDS + START_TILES


def colour_of(tile_or_card: str) -> Colour:
    """Return the colour letter of a tile or building card, e.g. ``colour_of("Y12") == "Y"``."""
    colour = _COLOUR_OF.get(tile_or_card[0])
    if colour is None:
        raise ValueError(f"{tile_or_card!r} is no tile or building card: no colour (§3)")
    return colour


_COLOUR_OF: Final[dict[str, Colour]] = {c: c for c in COLOURS}


def number_of(tile_or_card: str) -> int:
    """Return the number of a tile or building card, e.g. ``number_of("Y12") == 12``."""
    return int(tile_or_card[1:])


class _Parsed(dict[str, T]):
    """A function of tiles and cards as a dict of its values for the 60 tiles, which the
    rules' inner loops look up rather than parse (each legal selection prices every tile
    behind the screen); anything else is parsed on the spot, not kept."""

    def __init__(self, parse: Callable[[str], T]) -> None:
        super().__init__({t: parse(t) for t in TILES})
        self._parse = parse

    def __missing__(self, item: str) -> T:
        return self._parse(item)


#: ``NUMBER[t] == number_of(t)`` and ``COLOUR[t] == colour_of(t)``.
NUMBER: Final[dict[str, int]] = _Parsed(number_of)
COLOUR: Final[dict[str, Colour]] = _Parsed(colour_of)


def is_urbanization(card: str) -> bool:
    """True for ``"U-A"`` … ``"U-L"``."""
    return card.startswith("U-")


def letter_of(card: str) -> str:
    """Return the letter of an urbanization card: ``letter_of("U-B") == "B"``."""
    return card[2:]


_CANON: Final[dict[str, int]] = {
    **{card: i for i, card in enumerate(URBANIZATION_CARDS)},
    **{tile: 100 + i for i, tile in enumerate(TILES)},
}


def canon_key(item: str) -> int:
    """Sort key of the canonical order of §14 (urbanization cards, then R, Y, B by number)."""
    if item in _CANON:
        return _CANON[item]
    return 1000 + int(item[1:]) if item.startswith("C") else 10_000


class _CanonKeys(dict[str, int]):
    """:func:`canon_key` as a dict, whose lookup sorts faster than a Python key function."""

    def __missing__(self, item: str) -> int:
        return canon_key(item)


#: ``sorted(items, key=CANON_KEY.__getitem__)`` is ``sorted(items, key=canon_key)``.
CANON_KEY: Final[dict[str, int]] = _CanonKeys(_CANON)


# --------------------------------------------------------------------------- building cards


@dataclass(frozen=True)
class BuildingCard:
    """One of the 60 building cards (§4.2).

    ``kind`` is ``"permanent"`` (1-9: ``trigger`` + ``reward``) or ``"end"`` (10-20:
    ``rule`` with its parameters, scored at the end, §12.2).
    """

    id: str
    colour: Colour
    number: int
    kind: Literal["permanent", "end"]
    trigger: Trigger | None = None
    reward: tuple[tuple[Item, int], ...] = ()
    rule: (
        Literal["owned_colour", "owned_height", "tableau_trigger", "tableau_colour", "flat"] | None
    ) = None
    target_colour: Colour | None = None
    target_trigger: Trigger | None = None
    min_height: int = 0
    max_height: int = 10_000
    per: int = 0


_OWNED_11: Final[dict[str, Colour]] = {"R": "Y", "Y": "R", "B": "R"}
_OWNED_12: Final[dict[str, Colour]] = {"R": "B", "Y": "B", "B": "Y"}


def _building_card(c: Colour, n: int) -> BuildingCard:
    cid = f"{c}{n}"
    if n <= 9:
        reward: tuple[tuple[Item, int], ...] = ((ITEM_OF[c], 1),)
        if n >= 7:
            reward += (("sp", 1),)
        return BuildingCard(cid, c, n, "permanent", trigger=TRIGGERS[(n - 1) % 3], reward=reward)
    if n in (10, 13):
        return BuildingCard(cid, c, n, "end", rule="owned_colour", target_colour=c, per=1)
    if n == 11:
        return BuildingCard(
            cid, c, n, "end", rule="owned_colour", target_colour=_OWNED_11[c], per=1
        )
    if n == 12:
        return BuildingCard(
            cid, c, n, "end", rule="owned_colour", target_colour=_OWNED_12[c], per=1
        )
    if n == 14:
        return BuildingCard(
            cid, c, n, "end", rule="owned_height", min_height=1, max_height=2, per=1
        )
    if n == 15:
        return BuildingCard(cid, c, n, "end", rule="owned_height", min_height=3, per=3)
    if n in (16, 17, 18):
        return BuildingCard(
            cid, c, n, "end", rule="tableau_trigger", target_trigger=TRIGGERS[n - 16], per=2
        )
    if n == 19:
        return BuildingCard(cid, c, n, "end", rule="tableau_colour", target_colour=c, per=2)
    return BuildingCard(cid, c, n, "end", rule="flat", per=9)


BUILDING_CARDS: Final[dict[str, BuildingCard]] = {
    f"{c}{n}": _building_card(c, n) for c in COLOURS for n in range(1, 21)
}


# --------------------------------------------------------------------------- characters


@dataclass(frozen=True)
class Character:
    """A character card (§4.4): a permanent bonus and the starting items it gives."""

    id: str
    set: int | None
    colour: Colour
    trigger: Trigger
    start_resources: int
    start_sp: int
    start_tiles: int

    @property
    def reward(self) -> tuple[tuple[Item, int], ...]:
        """The permanent bonus: +1 item of the character's colour."""
        return ((ITEM_OF[self.colour], 1),)


#: The characters live in characters.csv next to this module, so the list can be corrected
#: without touching code (D8): C01-C18 are sourced, C19-C27 reconstructed [X, D8]. Blank
#: ``set`` = no set number.
CHARACTERS_FILE: Final[Path] = Path(__file__).with_name("characters.csv")


def _load_characters(path: Path) -> dict[str, Character]:
    """Read and check the character table; a bad row names its line."""
    characters: dict[str, Character] = {}
    with path.open(newline="", encoding="utf-8") as f:
        for line, row in enumerate(csv.DictReader(f), start=2):
            colour, trigger = row["colour"], row["trigger"]
            if colour not in COLOURS or trigger not in get_args(Trigger) or row["id"] in characters:
                raise ValueError(f"{path.name} line {line}: bad character row {row}")
            characters[row["id"]] = Character(
                id=row["id"],
                set=int(row["set"]) if row["set"] else None,
                colour=colour,
                trigger=trigger,  # type: ignore[arg-type]  # checked against Trigger above
                start_resources=int(row["start_resources"]),
                start_sp=int(row["start_sp"]),
                start_tiles=int(row["start_tiles"]),
            )
    return characters


CHARACTERS: Final[dict[str, Character]] = _load_characters(CHARACTERS_FILE)
CHARACTER_IDS: Final[tuple[str, ...]] = tuple(CHARACTERS)
SETS: Final[tuple[int, ...]] = (1, 2, 3, 4, 5, 6)


def set_members(set_number: int) -> list[str]:
    """The three characters of a first-game set, by ID (§16.1)."""
    return [c.id for c in CHARACTERS.values() if c.set == set_number]


def bonus_of(card: str) -> tuple[Trigger, tuple[tuple[Item, int], ...]] | None:
    """Trigger and reward of a tableau card's permanent bonus, or None for cards 10-20."""
    if card in CHARACTERS:
        ch = CHARACTERS[card]
        return ch.trigger, ch.reward
    bc = BUILDING_CARDS[card]
    if bc.kind == "permanent" and bc.trigger is not None:
        return bc.trigger, bc.reward
    return None


#: :func:`bonus_of` of every tableau card (characters and building cards).
BONUS: Final[dict[str, tuple[Trigger, tuple[tuple[Item, int], ...]] | None]] = {
    card: bonus_of(card) for card in (*CHARACTERS, *BUILDING_CARDS)
}


def card_colour(card: str) -> Colour:
    """Colour of a tableau card (character or building card)."""
    return CHARACTERS[card].colour if card in CHARACTERS else BUILDING_CARDS[card].colour


# --------------------------------------------------------------------------- player counts


@dataclass(frozen=True)
class PlayerCount:
    """Per-player-count parameters (§4.5)."""

    resources: int
    tiles_removed: int
    cards_discarded: int


PLAYER_COUNTS: Final[dict[int, PlayerCount]] = {
    1: PlayerCount(25, 6, 7),
    2: PlayerCount(25, 6, 7),
    3: PlayerCount(20, 6, 7),
    4: PlayerCount(18, 0, 0),
    5: PlayerCount(16, 0, 0),
}

HAND_SIZE: Final[int] = 4
SOLO_HAND: Final[int] = 3
NEW_HAND_TOKENS: Final[int] = 2
NEW_HAND_VALUE: Final[int] = 2
SOLO_START: Final[tuple[int, int, int]] = (6, 6, 6)  # resources, tiles, SP (§15)
DRAFT_DEAL: Final[int] = 4
