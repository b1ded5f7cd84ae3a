"""Luz components as data (rules §2, §3).

A card is written as its colour letter followed by its value (``"Y7"``, ``"P12"``);
within one player count every (colour, value) pair exists exactly once.
"""

from __future__ import annotations

from typing import Final, Literal, TypeAlias

from app.games.messages import LOCALES, msg, render

Colour: TypeAlias = Literal["R", "Y", "G", "B", "P"]
Card: TypeAlias = str
Side: TypeAlias = Literal["left", "right"]

#: Canonical colour order used for the deck, the sort and slot ids (§2, §8).
COLOURS: Final[tuple[Colour, ...]] = ("R", "Y", "G", "B", "P")
COLOUR_INDEX: Final[dict[str, int]] = {c: i for i, c in enumerate(COLOURS)}
#: The trump colour of the stained-glass edition (§5.6); option ``trump="none"`` disables it.
TRUMP_COLOUR: Final[Colour] = "Y"

#: Each colour's name, read from the catalogue (``luz.colour.<c>`` in static/i18n).
COLOUR_NAMES: Final[dict[str, dict[str, str]]] = {
    locale: {c: render(msg(f"luz.colour.{c}"), locale) for c in COLOURS} for locale in LOCALES
}

MIN_PLAYERS: Final = 3
MAX_PLAYERS: Final = 5
HAND_SIZE: Final = 10
UNDEALT: Final = 10
DEALS: Final = 4
TRICKS_PER_DEAL: Final = HAND_SIZE
MAX_BET: Final = 10

#: Highest value in each colour per player count (§3).
VALUES_BY_PLAYERS: Final[dict[int, int]] = {3: 8, 4: 10, 5: 12}


def card_colour(card: Card) -> Colour:
    """Return the colour letter of a card code.

    >>> card_colour("P12")
    'P'
    """
    colour = _COLOUR_OF.get(card[0])
    if colour is None:
        raise ValueError(f"{card!r} is not a Luz card: no colour {card[0]!r} (§2)")
    return colour


_COLOUR_OF: Final[dict[str, Colour]] = {c: c for c in COLOURS}


def card_value(card: Card) -> int:
    """Return the value of a card code.

    >>> card_value("P12")
    12
    """
    return int(card[1:])


def sort_key(card: Card) -> tuple[int, int]:
    """Canonical order: colour R, Y, G, B, P, then value ascending (§5.2)."""
    return (COLOUR_INDEX[card[0]], int(card[1:]))


def deck(n_players: int) -> list[Card]:
    """The deck of a player count in canonical order, index 0 = ``R1`` (§8 step 1).

    >>> len(deck(3)), deck(3)[0], deck(5)[-1]
    (40, 'R1', 'P12')
    """
    top = VALUES_BY_PLAYERS[n_players]
    return [f"{colour}{value}" for colour in COLOURS for value in range(1, top + 1)]


def max_length(n_players: int) -> int:
    """At most 4 x (N bets + 10N plays + N sort choices) actions in a game (§7).

    >>> max_length(3)
    144
    """
    return DEALS * (n_players + TRICKS_PER_DEAL * n_players + n_players)
