"""What one seat (or a spectator) may see, exactly per the table of rules §13."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, Field

from app.games.base import Seat
from app.games.trusted import trusted

from . import data as D
from .rules import (
    Building,
    Cell,
    FinalScore,
    GinkgopolisOptions,
    GinkgopolisState,
    Phase,
    building_of,
    cell_of,
    districts,
    key,
    neighbours,
    reading_order,
    score_district,
    selection_actions,
    to_act,
)


class BuildingView(BaseModel):
    """A building of the city (public, §13)."""

    cell: Cell
    tiles: list[str] = Field(description="bottom → top")
    top: str
    colour: str
    number: int
    height: int
    owner: int | None = Field(description="player index (solo: 1 = Hal), None = unowned")
    pending: bool = Field(description="construction-site pawn on the top tile")


class SelectionView(BaseModel):
    card: str
    tile: str | None


class PlayerView(BaseModel):
    """One player as the viewer may see it; private fields are None for other viewers."""

    player: int
    seat: int | None = Field(description="None for Hal")
    colour: str
    hal: bool
    resources: int = Field(description="behind the screen (public count)")
    supply: int = Field(description="resources of this colour in the general supply")
    on_buildings: int
    tile_count: int = Field(description="tiles behind the screen, set-aside contributions included")
    sp: int | None = Field(description="None when hidden (option hidden_sp)")
    new_hand_tokens: int
    characters: list[str]
    tableau: list[str]
    hand_count: int
    has_selected: bool
    tile_attached: bool
    revealed: SelectionView | None = Field(description="the selection once revealed this round")
    declared_new_hand: bool = Field(description="has committed its New Hand declaration this round")
    contribution_done: bool
    draft_picked: bool
    # private parts, the viewer's own only
    hand: list[str] | None = None
    tiles: list[str] | None = None
    selection: SelectionView | None = None
    set_aside: list[str] | None = None
    new_hand_choice: bool | None = None
    draft_pile: list[str] | None = None
    draft_kept: list[str] | None = None


class DecisionView(BaseModel):
    kind: Literal["take", "move_token"]
    seat: int
    player: int
    card: str = Field(
        description="the card being resolved; for a token move the urbanization card played "
        "(Hal's too, so the board can show it)"
    )
    letter: str
    site: Cell | None
    items: list[str]
    candidates: list[Cell]


class DistrictView(BaseModel):
    cells: list[Cell]
    colour: str
    scores: dict[int, int] = Field(description="SP per player if the game ended now")


class SelectionHint(BaseModel):
    """What one legal selection of the viewer would do and cost (§7), so the board can say it.

    The board knows no rules: it only shows these numbers next to the matching action.
    """

    card: str
    tile: str | None
    action: Literal["exploit", "urbanize", "build_up"]
    cell: Cell | None = Field(description="the building exploited or covered, or the site")
    height: int = Field(description="height of the exploited building / after building up")
    gains: dict[str, int] = Field(
        description="items from buildings (exploit: its floors; urbanize: the neighbours), "
        "bonuses not included; empty for an urbanization card alone (1 resource or 1 tile)"
    )
    sp_cost: int = 0
    colour_cost: int = 0
    resources: int = Field(default=0, description="resources put on the building")
    owner_sp: int = Field(default=0, description="SP the previous owner receives")


class GinkgopolisView(BaseModel):
    """The redacted picture of the game for one viewer."""

    game: Literal["ginkgopolis"] = "ginkgopolis"
    seat: int | None
    n_players: int
    solo: bool
    options: GinkgopolisOptions
    phase: Phase
    round: int
    first_player: int
    to_act: list[int]
    city: list[BuildingView]
    tokens: dict[str, Cell]
    stacks: dict[str, list[int]]
    deck_count: int
    discard_count: int
    supply_count: int
    removed_count: int
    refill_done: bool
    end_triggered: bool
    end_reasons: list[str]
    players: list[PlayerView]
    decision: DecisionView | None
    hal_card_face_down: bool
    districts: list[DistrictView]
    final: list[FinalScore] | None
    selection_hints: list[SelectionHint] | None = Field(
        default=None, description="the viewer's own legal selections explained (select phase)"
    )


def _yield(s: GinkgopolisState, cells: list[Cell]) -> dict[str, int]:
    """Items the buildings on ``cells`` give when exploited: one of their colour per floor."""
    out: dict[str, int] = {}
    for c in cells:
        b = s.city.get(key(c))
        if b is not None:
            item = D.ITEM_OF[b.top[0]]
            out[item] = out.get(item, 0) + b.height
    return out


def selection_hints(s: GinkgopolisState, seat: int) -> list[SelectionHint]:
    """Each legal selection of ``seat`` with its target, gains and costs (§7.1-7.3)."""
    return [trusted(SelectionHint, **values) for values in _hint_values(s, seat)]


def _hint_values(s: GinkgopolisState, seat: int) -> list[dict[str, Any]]:
    """The fields of each of :func:`selection_hints` that it is given (the others are their
    defaults): what the view's models are made of, and its JSON form."""
    hints: list[dict[str, Any]] = []
    # what depends on the card only, worked out once for all its tiles
    yields: dict[str, dict[str, int]] = {}
    found_for: dict[str, tuple[str, Building] | None] = {}
    for a in selection_actions(s, seat):
        if D.is_urbanization(a.card):
            site = s.tokens.get(D.letter_of(a.card))
            if a.tile is None:
                hints.append(
                    {
                        "card": a.card,
                        "tile": None,
                        "action": "exploit",
                        "cell": site,
                        "height": 0,
                        "gains": {},
                    }
                )
                continue
            if a.card not in yields:
                yields[a.card] = _yield(s, neighbours(site) if site is not None else [])
            hints.append(
                {
                    "card": a.card,
                    "tile": a.tile,
                    "action": "urbanize",
                    "cell": site,
                    "height": 1,
                    "gains": dict(yields[a.card]),
                    "resources": 1,
                }
            )
            continue
        if a.card not in found_for:
            found_for[a.card] = building_of(s, a.card)
        found = found_for[a.card]
        if found is None:
            continue
        k, b = found
        if a.tile is None:
            hints.append(
                {
                    "card": a.card,
                    "tile": None,
                    "action": "exploit",
                    "cell": cell_of(k),
                    "height": b.height,
                    "gains": _yield(s, [cell_of(k)]),
                }
            )
            continue
        hints.append(
            {
                "card": a.card,
                "tile": a.tile,
                "action": "build_up",
                "cell": cell_of(k),
                "height": b.height + 1,
                "gains": {},
                "sp_cost": max(0, D.number_of(b.top) - D.number_of(a.tile)),
                "colour_cost": 1 if D.colour_of(a.tile) != D.colour_of(b.top) else 0,
                "resources": b.height + 1,
                "owner_sp": b.height if b.owner is not None and b.owner != seat else 0,
            }
        )
    return hints


def _building_view(cell: Cell, b: Building) -> BuildingView:
    top = b.tiles[-1]
    return trusted(
        BuildingView,
        cell=cell,
        tiles=list(b.tiles),
        top=top,
        colour=top[0],
        number=D.NUMBER[top],
        height=len(b.tiles),
        owner=b.owner,
        pending=b.pending,
    )


def view(s: GinkgopolisState, seat: Seat | None, explained: bool = True) -> GinkgopolisView:
    """Return what ``seat`` may see (None = spectator), per §13; not ``explained``, without
    the districts and selection hints, which only people read (:func:`playout_view`).

    Every model of the view is built unvalidated (:func:`~.events.trusted`) from values
    of the right types, which is the same view validation would build.
    """
    city_map = s.city
    city = [
        _building_view(c, city_map[f"{c[0]},{c[1]}"])
        for c in reading_order(cell_of(k) for k in city_map)
    ]
    on_buildings = [0] * len(s.players)
    for b in city_map.values():
        if b.owner is not None:
            on_buildings[b.owner] += len(b.tiles)
    players: list[PlayerView] = []
    phase = s.phase
    hidden_sp = s.options.hidden_sp
    for p, pl in enumerate(s.players):
        own = seat is not None and seat == p and not pl.hal
        sel = pl.selection
        show_sp = own or pl.hal or not hidden_sp or phase == "over"
        players.append(
            trusted(
                PlayerView,
                player=p,
                seat=None if pl.hal else p,
                colour=pl.colour,
                hal=pl.hal,
                resources=pl.resources,
                supply=pl.supply,
                on_buildings=on_buildings[p],
                tile_count=len(pl.tiles) + len(pl.set_aside),
                sp=pl.sp if show_sp else None,
                new_hand_tokens=pl.tokens,
                characters=list(pl.characters),
                tableau=list(pl.tableau),
                hand_count=len(pl.hand),
                has_selected=sel is not None,
                tile_attached=sel is not None and sel.tile is not None,
                revealed=trusted(SelectionView, card=sel.card, tile=sel.tile)
                if sel is not None and pl.revealed
                else None,
                declared_new_hand=phase == "new_hand" and pl.new_hand is not None,
                contribution_done=pl.contribution_done,
                draft_picked=pl.draft_picked,
                hand=list(pl.hand) if own else None,
                tiles=list(pl.tiles) if own else None,
                selection=trusted(SelectionView, card=sel.card, tile=sel.tile)
                if own and sel is not None
                else None,
                set_aside=list(pl.set_aside) if own else None,
                new_hand_choice=pl.new_hand if own else None,
                draft_pile=list(pl.draft_pile) if own else None,
                draft_kept=list(pl.draft_kept) if own else None,
            )
        )
    d = s.decision
    dist_views = []
    for group in districts(city_map) if explained else ():
        dist_views.append(
            trusted(
                DistrictView,
                cells=[cell_of(k) for k in group],
                colour=city_map[group[0]].tiles[-1][0],
                scores=score_district(city_map, group),
            )
        )
    owing = to_act(s)
    return trusted(
        GinkgopolisView,
        seat=seat,
        n_players=s.n_players,
        solo=s.solo,
        options=s.options,
        phase=phase,
        round=s.round,
        first_player=s.first_player,
        to_act=sorted(owing),
        city=city,
        tokens=dict(s.tokens),
        stacks={c: list(v) for c, v in s.stacks.items()},
        deck_count=len(s.deck),
        discard_count=len(s.discard),
        supply_count=len(s.supply),
        removed_count=len(s.removed_tiles),
        refill_done=s.refill_done,
        end_triggered=s.end_triggered,
        end_reasons=list(s.end_reasons),
        players=players,
        decision=None
        if d is None
        else trusted(
            DecisionView,
            kind=d.kind,
            seat=d.seat,
            player=d.player,
            card=d.card,
            letter=d.letter,
            site=d.site,
            items=list(d.items),
            candidates=list(d.candidates),
        ),
        hal_card_face_down=s.hal_card is not None,
        districts=dist_views,
        final=None if s.final is None else list(s.final),
        selection_hints=selection_hints(s, seat)
        if explained and seat is not None and phase == "select" and seat in owing
        else None,
    )


def playout_view(s: GinkgopolisState, seat: Seat) -> GinkgopolisView:
    """The view a bot reads in a search's playout: no bot level reads the districts or the
    selection hints, which cost a playout an eighth of its time to build."""
    return view(s, seat, explained=False)


# --------------------------------------------------------------------------- the wire form


def view_json(s: GinkgopolisState, seat: Seat | None, parts: dict[Any, Any]) -> dict[str, Any]:
    """:func:`view` as JSON data, the same as its ``model_dump(mode="json")``, built without
    the models (a view's models and their dump cost several times what the data does; every
    view a server sends comes this way, and tests/unit/games/test_view_json.py holds the two
    to each other). The views of one state share, through ``parts``, what is the same in
    each: the city, the districts, the counts, and each player as the others see it."""
    common = parts.get("common")
    if common is None:
        common = parts["common"] = _common_json(s)
    phase = s.phase
    players = []
    for p, pl in enumerate(s.players):
        own = seat is not None and seat == p and not pl.hal
        if own:
            players.append(_player_json(s, p, True))
            continue
        shown = parts.get(("player", p))
        if shown is None:
            shown = parts[("player", p)] = _player_json(s, p, False)
        players.append(shown)
    owing = common["owing"]
    hints = (
        [{**_HINT_DEFAULTS, **h, "cell": _cell(h["cell"])} for h in _hint_values(s, seat)]
        if seat is not None and phase == "select" and seat in owing
        else None
    )
    return {
        "game": "ginkgopolis",
        "seat": seat,
        **common["head"],
        "players": players,
        **common["tail"],
        "selection_hints": hints,
    }


def _cell(cell: Cell | None) -> list[int] | None:
    return None if cell is None else [cell[0], cell[1]]


@lru_cache(maxsize=64)
def _options_json(options: GinkgopolisOptions) -> dict[str, Any]:
    # Shared by every view of a table: nobody changes a view's data once built.
    return options.model_dump(mode="json")


def _common_json(s: GinkgopolisState) -> dict[str, Any]:
    """What every seat's view of ``s`` holds alike, in the order of GinkgopolisView's fields."""
    city_map = s.city
    city = []
    for c in reading_order(cell_of(k) for k in city_map):
        b = city_map[f"{c[0]},{c[1]}"]
        tiles = b.tiles
        top = tiles[-1]
        city.append(
            {
                "cell": [c[0], c[1]],
                "tiles": list(tiles),
                "top": top,
                "colour": top[0],
                "number": D.NUMBER[top],
                "height": len(tiles),
                "owner": b.owner,
                "pending": b.pending,
            }
        )
    owing = to_act(s)
    d = s.decision
    decision = (
        None
        if d is None
        else {
            "kind": d.kind,
            "seat": d.seat,
            "player": d.player,
            "card": d.card,
            "letter": d.letter,
            "site": _cell(d.site),
            "items": list(d.items),
            "candidates": [[c[0], c[1]] for c in d.candidates],
        }
    )
    dist_views = [
        {
            "cells": [list(cell_of(k)) for k in group],
            "colour": city_map[group[0]].tiles[-1][0],
            "scores": {str(o): v for o, v in score_district(city_map, group).items()},
        }
        for group in districts(city_map)
    ]
    final = (
        None
        if s.final is None
        else [
            {
                "player": f.player,
                "sp": f.sp,
                "districts": f.districts,
                "cards": f.cards,
                "tokens": f.tokens,
                "total": f.total,
            }
            for f in s.final
        ]
    )
    head: dict[str, Any] = {
        "n_players": s.n_players,
        "solo": s.solo,
        "options": _options_json(s.options),
        "phase": s.phase,
        "round": s.round,
        "first_player": s.first_player,
        "to_act": sorted(owing),
        "city": city,
        "tokens": {lt: [c[0], c[1]] for lt, c in s.tokens.items()},
        "stacks": {c: list(v) for c, v in s.stacks.items()},
        "deck_count": len(s.deck),
        "discard_count": len(s.discard),
        "supply_count": len(s.supply),
        "removed_count": len(s.removed_tiles),
        "refill_done": s.refill_done,
        "end_triggered": s.end_triggered,
        "end_reasons": list(s.end_reasons),
    }
    tail: dict[str, Any] = {
        "decision": decision,
        "hal_card_face_down": s.hal_card is not None,
        "districts": dist_views,
        "final": final,
    }
    return {"head": head, "tail": tail, "owing": owing}


def _player_json(s: GinkgopolisState, p: int, own: bool) -> dict[str, Any]:
    """Player ``p`` as its own seat (``own``) or any other viewer sees it (PlayerView)."""
    pl = s.players[p]
    phase = s.phase
    sel = pl.selection
    on_buildings = 0
    for b in s.city.values():
        if b.owner == p:
            on_buildings += len(b.tiles)
    show_sp = own or pl.hal or not s.options.hidden_sp or phase == "over"
    shown_sel = None if sel is None else {"card": sel.card, "tile": sel.tile}
    return {
        "player": p,
        "seat": None if pl.hal else p,
        "colour": pl.colour,
        "hal": pl.hal,
        "resources": pl.resources,
        "supply": pl.supply,
        "on_buildings": on_buildings,
        "tile_count": len(pl.tiles) + len(pl.set_aside),
        "sp": pl.sp if show_sp else None,
        "new_hand_tokens": pl.tokens,
        "characters": list(pl.characters),
        "tableau": list(pl.tableau),
        "hand_count": len(pl.hand),
        "has_selected": sel is not None,
        "tile_attached": sel is not None and sel.tile is not None,
        "revealed": shown_sel if pl.revealed else None,
        "declared_new_hand": phase == "new_hand" and pl.new_hand is not None,
        "contribution_done": pl.contribution_done,
        "draft_picked": pl.draft_picked,
        "hand": list(pl.hand) if own else None,
        "tiles": list(pl.tiles) if own else None,
        "selection": dict(shown_sel) if own and shown_sel is not None else None,
        "set_aside": list(pl.set_aside) if own else None,
        "new_hand_choice": pl.new_hand if own else None,
        "draft_pile": list(pl.draft_pile) if own else None,
        "draft_kept": list(pl.draft_kept) if own else None,
    }


#: A hint's fields in order with their defaults, for those a hint is not given.
_HINT_DEFAULTS: dict[str, Any] = {
    name: None if info.is_required() else info.default
    for name, info in SelectionHint.model_fields.items()
}
