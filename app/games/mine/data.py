"""MINE! components as data tables (rules/mine.md §2).

Card ids: 1-60 profession cards (§2.5), 61-70 event cards (§2.6). Colour cards (§2.4) are
markers whose identity is only their colour; the die cards (§2.7) are ``D1``…``D6``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, TypeAlias

CardId: TypeAlias = int
Location: TypeAlias = Literal[
    "events", "shelter", "watchtower", "expedition", "mine", "recruitment"
]
ProfessionKind: TypeAlias = Literal[
    "miner", "pit_builder", "foreman", "watchman", "brawler", "engineer"
]
EventKind: TypeAlias = Literal[
    "firedamp",
    "safety_lamp",
    "big_order",
    "rich_seam",
    "hiring_day",
    "strike",
    "cage_breakdown",
    "gendarmes",
]

#: The six locations of a director's board, in resolution order (§2.3).
LOCATIONS: Final[tuple[Location, ...]] = (
    "events",
    "shelter",
    "watchtower",
    "expedition",
    "mine",
    "recruitment",
)
#: Resolution step number of each location (§5.3).
LOCATION_STEP: Final[dict[Location, int]] = {loc: i + 1 for i, loc in enumerate(LOCATIONS)}
#: Locations that take profession cards (§2.3).
PROFESSION_LOCATIONS: Final[tuple[Location, ...]] = ("shelter", "watchtower", "mine", "recruitment")


@dataclass(frozen=True)
class ProfessionType:
    """One row of table §2.5: a profession, its ids and its four helmet values."""

    kind: ProfessionKind
    first_id: int
    count: int
    atk: int
    defence: int
    ext: int
    rec: int
    names: dict[str, str]


#: Table §2.5 (the 60 profession cards).
PROFESSION_TYPES: Final[tuple[ProfessionType, ...]] = (
    ProfessionType("miner", 1, 24, 2, 1, 2, 1, {"en": "Miner", "fr": "Mineur", "es": "Minero"}),
    ProfessionType(
        "pit_builder",
        25,
        24,
        1,
        2,
        1,
        1,
        {"en": "Pit builder", "fr": "Boiseur", "es": "Entibador"},
    ),
    ProfessionType(
        "foreman", 49, 3, 1, 1, 1, 3, {"en": "Foreman", "fr": "Porion", "es": "Capataz"}
    ),
    ProfessionType(
        "watchman", 52, 3, 1, 3, 0, 1, {"en": "Watchman", "fr": "Gardien", "es": "Vigilante"}
    ),
    ProfessionType(
        "brawler", 55, 3, 3, 1, 0, 1, {"en": "Brawler", "fr": "Bagarreur", "es": "Matón"}
    ),
    ProfessionType(
        "engineer", 58, 3, 0, 1, 3, 1, {"en": "Engineer", "fr": "Ingénieur", "es": "Ingeniero"}
    ),
)


@dataclass(frozen=True)
class EventType:
    """One row of table §2.6."""

    kind: EventKind
    first_id: int
    count: int
    names: dict[str, str]


#: Table §2.6 (the 10 event cards).
EVENT_TYPES: Final[tuple[EventType, ...]] = (
    EventType("firedamp", 61, 3, {"en": "Firedamp", "fr": "Coup de grisou", "es": "Grisú"}),
    EventType(
        "safety_lamp",
        64,
        1,
        {"en": "Safety Lamp", "fr": "Lampe de sûreté", "es": "Lámpara de seguridad"},
    ),
    EventType(
        "big_order", 65, 1, {"en": "Big Order", "fr": "Grosse commande", "es": "Gran pedido"}
    ),
    EventType("rich_seam", 66, 1, {"en": "Rich Seam", "fr": "Filon riche", "es": "Veta rica"}),
    EventType(
        "hiring_day",
        67,
        1,
        {"en": "Hiring Day", "fr": "Jour d'embauche", "es": "Día de contratación"},
    ),
    EventType("strike", 68, 1, {"en": "Strike", "fr": "Grève", "es": "Huelga"}),
    EventType(
        "cage_breakdown",
        69,
        1,
        {"en": "Cage Breakdown", "fr": "Panne de la cage", "es": "Avería de la jaula"},
    ),
    EventType("gendarmes", 70, 1, {"en": "Gendarmes", "fr": "Gendarmerie", "es": "Gendarmes"}),
)


@dataclass(frozen=True)
class Card:
    """One physical profession or event card, by id."""

    id: CardId
    kind: ProfessionKind | EventKind
    is_event: bool
    atk: int = 0
    defence: int = 0
    ext: int = 0
    rec: int = 0

    @property
    def total(self) -> int:
        """Sum of the four helmet values (the dummy's discard tie-break, §7.5)."""
        return self.atk + self.defence + self.ext + self.rec


def _build_cards() -> dict[CardId, Card]:
    cards: dict[CardId, Card] = {}
    for p in PROFESSION_TYPES:
        for cid in range(p.first_id, p.first_id + p.count):
            cards[cid] = Card(cid, p.kind, False, p.atk, p.defence, p.ext, p.rec)
    for e in EVENT_TYPES:
        for cid in range(e.first_id, e.first_id + e.count):
            cards[cid] = Card(cid, e.kind, True)
    return cards


#: Every card of the game by id (1-70).
CARDS: Final[dict[CardId, Card]] = _build_cards()
ALL_CARD_IDS: Final[tuple[CardId, ...]] = tuple(sorted(CARDS))
PROFESSION_IDS: Final[tuple[CardId, ...]] = tuple(c for c in ALL_CARD_IDS if not CARDS[c].is_event)
EVENT_IDS: Final[tuple[CardId, ...]] = tuple(c for c in ALL_CARD_IDS if CARDS[c].is_event)
N_CARDS: Final[int] = 70

KIND_NAMES: Final[dict[str, dict[str, str]]] = {
    **{p.kind: p.names for p in PROFESSION_TYPES},
    **{e.kind: e.names for e in EVENT_TYPES},
}

# Fast lookup tables (index = card id; index 0 unused).
ATK: Final[tuple[int, ...]] = (0, *(CARDS[c].atk for c in ALL_CARD_IDS))
DEF: Final[tuple[int, ...]] = (0, *(CARDS[c].defence for c in ALL_CARD_IDS))
EXT: Final[tuple[int, ...]] = (0, *(CARDS[c].ext for c in ALL_CARD_IDS))
REC: Final[tuple[int, ...]] = (0, *(CARDS[c].rec for c in ALL_CARD_IDS))
IS_EVENT: Final[tuple[bool, ...]] = (False, *(CARDS[c].is_event for c in ALL_CARD_IDS))
KIND: Final[tuple[str, ...]] = ("", *(CARDS[c].kind for c in ALL_CARD_IDS))


def card_name(card: CardId, locale: str = "en") -> str:
    """Return the display name of a card with its id, e.g. ``"Miner 3"``.

    >>> card_name(61, "es")
    'Grisú 61'
    """
    return f"{KIND_NAMES[CARDS[card].kind][locale]} {card}"


# --------------------------------------------------------------------------- colours (§2.4)

N_COLOURS: Final[int] = 6
COLOUR_IDS: Final[tuple[str, ...]] = tuple(f"c{k}" for k in range(N_COLOURS))
#: Reconstructed cosmetic display names (§2.4). The towns of the seed (Blanzy, Decazeville…)
#: are the game's partner towns, not the colours' names: no colour is named after a town.
COLOUR_NAMES: Final[dict[str, tuple[str, ...]]] = {
    "en": ("red", "blue", "green", "yellow", "purple", "orange"),
    "es": ("rojo", "azul", "verde", "amarillo", "morado", "naranja"),
}
COPIES_PER_COLOUR: Final[int] = 5
#: The 30 colour cards as (colour id, copy number).
COLOUR_CARDS: Final[tuple[tuple[str, int], ...]] = tuple(
    (c, i) for c in COLOUR_IDS for i in range(COPIES_PER_COLOUR)
)


# --------------------------------------------------------------------------- die cards (§2.7)


@dataclass(frozen=True)
class DieCard:
    """A die card of the variant: its mine maximum and sale maximum."""

    id: str
    mine_max: int
    sale_max: int


DIE_CARDS: Final[dict[str, DieCard]] = {f"D{i}": DieCard(f"D{i}", 7 - i, i) for i in range(1, 7)}
DIE_CARD_IDS: Final[tuple[str, ...]] = tuple(DIE_CARDS)

# --------------------------------------------------------------------------- other numbers

N_COAL: Final[int] = 20
START_COAL: Final[int] = 2
START_COAL_VARIANT: Final[int] = 3
TRACK_MAX: Final[int] = 30
END_SCORE: Final[int] = 21
ROUNDS: Final[int] = 6
MAX_PLACED: Final[int] = 4
HAND_LIMIT: Final[int] = 8
#: Cards every director draws at step 6, with or without a card at Recruitment (§5.9.1,
#: revised Decision); the cards placed there add their REC.
BASE_DRAW: Final[int] = 2
#: Extra cards the owner of Hiring Day draws at step 6 (§2.6).
HIRING_DAY_DRAW: Final[int] = 2
MIN_SEATS: Final[int] = 2
MAX_SEATS: Final[int] = 6


def starting_hand(director: int) -> list[CardId]:
    """Return the fixed starting hand of director k (§4.5): Miners 4k+1…4k+4, Pit builders 25+4k….

    >>> starting_hand(1)
    [5, 6, 7, 8, 29, 30, 31, 32]
    """
    return [4 * director + i for i in range(1, 5)] + [25 + 4 * director + i for i in range(4)]
