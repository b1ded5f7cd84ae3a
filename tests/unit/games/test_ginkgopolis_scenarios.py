"""Named state builders for the Ginkgopolis tests (plus a few checks of the builders).

Common cast of the worked examples: a 3-player game, Ana (seat 0, orange), Ben
(seat 1, green), Cara (seat 2, black); Ana is the first player of round 1; the
starting city is the fixed one of the examples file.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.base import Event, Rng
from app.games.ginkgopolis import ENGINE
from app.games.ginkgopolis import data as D
from app.games.ginkgopolis.actions import KeepHand
from app.games.ginkgopolis.rules import (
    Building,
    GinkgopolisOptions,
    GinkgopolisState,
    Selection,
    Step,
    _run,
    assemble,
    canon,
    key,
)

ANA, BEN, CARA = 0, 1, 2

#: The example starting city, in the cell order of §5.2.
EXAMPLE_CITY = ["Y1", "R2", "B3", "B1", "Y2", "R3", "R1", "B2", "Y3"]


def _ordered(front: list[str], pool: tuple[str, ...]) -> list[str]:
    """``front`` first, then every other element of ``pool`` in canonical order."""
    return [*front, *(x for x in pool if x not in front)]


def supply_with(front_after_removal: list[str], removed: int = 6) -> list[str]:
    """A 51-tile supply order whose first tiles after the removal are ``front_after_removal``."""
    rest = [t for t in D.SUPPLY_TILES if t not in front_after_removal]
    return [*rest[:removed], *front_after_removal, *rest[removed:]]


def deck_with(front_after_discard: list[str], discarded: int = 7) -> list[str]:
    """A 21-card deck order whose first cards after the 7-card discard are ``front_after_discard``."""
    rest = [c for c in D.START_DECK if c not in front_after_discard]
    return [*rest[:discarded], *front_after_discard, *rest[discarded:]]


def example_setup(
    supply_front: list[str] | None = None,
    deal: list[str] | None = None,
    options: GinkgopolisOptions | None = None,
) -> GinkgopolisState:
    """Example 1: 3 players, sets 3/5/1, Ana first, the example city (state after setup)."""
    sets = [3, 5, 1]
    return assemble(
        3,
        options or GinkgopolisOptions(),
        Rng.from_seed(1),
        list(EXAMPLE_CITY),
        supply_with(supply_front or []),
        deck_with(deal or []),
        [D.set_members(x) for x in sets],
        0,
    )


def round1_selecting() -> GinkgopolisState:
    """Round 1 at the selection step: Ana holds U-A and tile B14, Ben R2, Cara U-K."""
    # Ana's starting tiles are the first two supply tiles after the removal.
    deal = ["U-A", "R2", "U-K"]
    s = example_setup(supply_front=["B14", "B15"], deal=deal)
    for seat in (ANA, BEN, CARA):
        s, _ = ENGINE.apply(s, seat, KeepHand())
    assert s.phase == "select"
    return s


def put_building(
    s: GinkgopolisState, cell: tuple[int, int], tiles: list[str], owner: int | None
) -> None:
    """Place (or replace) a building, taking the owner's resources from their general supply."""
    old = s.city.get(key(cell))
    if old is not None and old.owner is not None:
        s.players[old.owner].supply += old.height
    s.city[key(cell)] = Building(tiles=list(tiles), owner=owner)
    if owner is not None:
        s.players[owner].supply -= len(tiles)


def set_holdings(
    s: GinkgopolisState,
    p: int,
    *,
    resources: int | None = None,
    sp: int | None = None,
    tiles: list[str] | None = None,
) -> None:
    """Set what is behind a screen (resources move between screen and general supply)."""
    pl = s.players[p]
    if resources is not None:
        pl.supply += pl.resources - resources
        pl.resources = resources
    if sp is not None:
        pl.sp = sp
    if tiles is not None:
        pl.tiles = canon(tiles)


def resolve(
    s: GinkgopolisState, p: int, card: str, tile: str | None
) -> tuple[GinkgopolisState, list[Event]]:
    """Reveal and resolve one player's selection (§6.2) on a copy of ``s``."""
    s = s.model_copy(deep=True)
    pl = s.players[p]
    if tile is not None and tile in pl.tiles:
        pl.tiles.remove(tile)
    if card in pl.hand:
        pl.hand.remove(card)
    pl.selection = Selection(card=card, tile=tile)
    s.phase = "resolve"
    s.decision = None
    s.queue = [Step(kind="resolve", player=p)]
    ev: list[Event] = []
    _run(s, ev)
    return s, ev


def play_random(
    n: int, seed: int, options: GinkgopolisOptions | None = None, level: str = "random"
) -> tuple[GinkgopolisState, list[tuple[int, Any]]]:
    """Play a whole game with the given bot level at every seat; return the state and the log."""
    s = ENGINE.setup(n, seed, options or GinkgopolisOptions())
    rng = random.Random(seed)
    log: list[tuple[int, Any]] = []
    for _ in range(ENGINE.max_length(n)):
        seats = sorted(ENGINE.to_act(s))
        if not seats:
            break
        seat = seats[rng.randrange(len(seats))]
        legal = ENGINE.legal_actions(s, seat)
        action = ENGINE.bot(ENGINE.view(s, seat), legal, rng, level)
        log.append((seat, action))
        s, _ = ENGINE.apply(s, seat, action)
    return s, log


def test_round1_builder_holds_the_example_cards() -> None:
    s = round1_selecting()
    assert "U-A" in s.players[ANA].hand and "B14" in s.players[ANA].tiles
    assert "R2" in s.players[BEN].hand
    assert "U-K" in s.players[CARA].hand


def test_put_building_keeps_resources_conserved() -> None:
    s = example_setup()
    before = s.players[BEN].supply
    put_building(s, (1, 2), ["Y9", "Y15"], BEN)
    assert s.players[BEN].supply == before - 2
