"""Worlds a seat cannot tell apart: the real state with what the seat may not see reshuffled.

Each game's hider permutes the parts its ``view.py`` hides from one seat (other hands,
face-down cards, deck order) among slots of the same kind; with a fresh Rng seed too,
the future chance. :func:`other_worlds` keeps only the worlds whose view for the seat
equals the real one, so a check that compares what happens across them proves that an
outcome depends on nothing hidden from the seat (the leak suite's refusals, and undo).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

from app.games.base import Engine
from app.games.ginkgopolis.data import canon_key
from app.games.luz.data import sort_key as luz_sort_key
from app.games.mine.data import IS_EVENT, LOCATION_STEP


def _dump(value: Any) -> Any:
    return value.model_dump(mode="json")


Slot = tuple[Any, Any]  # (list or dict, index or key): one place a hidden value sits


def _permute(slots: list[Slot], rng: random.Random, kind: Callable[[Any], Any] = type) -> None:
    """Shuffle the values in ``slots`` among slots whose value is of the same ``kind``."""
    groups: dict[Any, list[Slot]] = {}
    for slot in slots:
        groups.setdefault(kind(slot[0][slot[1]]), []).append(slot)
    for group in groups.values():
        values = [where[key] for where, key in group]
        rng.shuffle(values)
        for (where, key), value in zip(group, values, strict=True):
            where[key] = value


def _each(items: list[Any]) -> list[Slot]:
    return [(items, i) for i in range(len(items))]


def _hide_pick(d: dict[str, Any], seat: int, rng: random.Random) -> None:
    # pickgame.py: each seat sees only its own bonus cards.
    for other, bonuses in enumerate(d["bonuses"]):
        if other != seat:
            d["bonuses"][other] = [rng.randint(1, 9) for _ in bonuses]


def _hide_luz(d: dict[str, Any], seat: int, rng: random.Random) -> None:
    # luz/view.py: a seat sees every hand but its own, of which it sees slots and colours only;
    # nobody sees the undealt cards. Own cards trade with undealt ones of their colour, and
    # each colour stays in ascending slot order (as a dealt hand is).
    hand = d["hands"][seat]
    _permute([*[(hand, i) for i, c in enumerate(hand) if c], *_each(d["undealt"])], rng, _colour)
    for colour in {c[0] for c in hand if c}:
        slots = [i for i, c in enumerate(hand) if c and c[0] == colour]
        for i, card in zip(slots, sorted((hand[i] for i in slots), key=luz_sort_key), strict=True):
            hand[i] = card


def _colour(card: str) -> str:
    return card[0]


def _hide_mine(d: dict[str, Any], seat: int, rng: random.Random) -> None:
    # mine/view.py: other directors' hands and face-down cards (the dummy's plan too), the
    # draw pile and the die pile. Event cards trade only with event cards, so every placement
    # stays possible.
    slots = _each(d["draw_pile"])
    for director in d["directors"]:
        if director["seat"] != seat:
            slots += _each(director["hand"])
            slots += [
                (p, "card")
                for p in director["placed"]
                if LOCATION_STEP[p["location"]] > d["revealed_step"]
            ]
    slots += [(p, "card") for p in d["dummy_plan"]]
    _permute(slots, rng, lambda card: IS_EVENT[card])
    # The dummy's plan (its cards, where each goes and whom it raids) is secret until each
    # card is placed; the view shows only how many are left.
    rng.shuffle(d["dummy_plan"])
    rng.shuffle(d["die_pile"])


def _hide_gluckauf(d: dict[str, Any], seat: int, rng: random.Random) -> None:
    # gluckauf/view.py: stack and deck order, and (unless the option shows them) the other
    # seats' delivered piles. A pending draw is shown to the active seat, the only one to act.
    orders = _each(d["deck"])
    if not d["options"]["delivered_visible"]:
        for other, player in enumerate(d["players"]):
            if other != seat:
                orders += _each(player["delivered"])
    _permute(orders, rng)
    rng.shuffle(d["stack"])


def _hide_ginkgopolis(d: dict[str, Any], seat: int, rng: random.Random) -> None:
    # ginkgopolis/view.py: other players' hands, tiles behind the screen, set-aside tiles and
    # unrevealed selections; the deck and the tile supply.
    cards, tiles = _each(d["deck"]), _each(d["supply"])
    others = [p for i, p in enumerate(d["players"]) if i != seat and not p["hal"]]
    for player in others:
        cards += _each(player["hand"])
        tiles += _each(player["tiles"]) + _each(player["set_aside"])
        chosen = player["selection"]
        if chosen is not None and not player["revealed"]:
            cards.append((chosen, "card"))
            if chosen["tile"] is not None:
                tiles.append((chosen, "tile"))
    _permute(cards, rng)
    _permute(tiles, rng)
    for player in others:
        player["hand"] = sorted(player["hand"], key=canon_key)
        player["tiles"] = sorted(player["tiles"], key=canon_key)


HIDE: dict[str, Callable[[dict[str, Any], int, random.Random], None]] = {
    "pick": _hide_pick,
    "luz": _hide_luz,
    "mine": _hide_mine,
    "gluckauf": _hide_gluckauf,
    "ginkgopolis": _hide_ginkgopolis,
}


def other_worlds(engine: Engine, state: Any, seat: int, rng: random.Random) -> list[Any]:
    """States that ``seat`` cannot tell from ``state``: another Rng seed (the future chance,
    hidden from all), then twice also the game's hidden parts reshuffled."""
    data = _dump(state)
    seen = _dump(engine.view(state, seat))
    worlds = []
    for reshuffle in (False, True, True):
        d = copy.deepcopy(data)
        d["rng"]["seed"] = rng.getrandbits(63)
        if reshuffle:
            HIDE[engine.info.id](d, seat, rng)
        world = engine.State.model_validate(d)
        # Only a world the seat cannot tell apart proves anything. No view shows the Rng;
        # a reshuffle that shows (say, the hands once the game is over) is left out.
        if _dump(engine.view(world, seat)) == seen:
            worlds.append(world)
        else:
            assert reshuffle, "a view shows the Rng"
    return worlds
