"""The redacted picture of a Glück Auf table for one seat (§10).

Public to everyone: money, VP, workers (supply, spaces, bank, canteen), every pit
(tiles, carts, cage, storage), outstanding orders with their cubes, the factory
and order spaces, pile sizes, the coal supply. Delivered piles: the owner sees
its cards, others (and spectators) only a count, unless ``delivered_visible``.
A pending draw-5: the acting seat sees the drawn items and the return order so
far; everyone else sees only counts, end and the kept item. Stack and deck order:
nobody. The Rng never appears.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from app.games.base import Seat
from app.games.trusted import maker

from .data import (
    COLOURS,
    LEVEL_OF,
    ORDERS,
    SPACES,
    TILES,
    Colour,
    Side,
    Space,
    SpaceId,
    Transport,
    categories_for_shift,
    open_spaces,
)
from .rules import GluckaufState, Phase, empty_carts_by_colour


class _V(BaseModel):
    model_config = ConfigDict(frozen=True)


class TileInfo(_V):
    id: int
    type_id: str
    colour: Colour
    level: int
    carts: int
    side: Side
    cost: int


class OrderInfo(_V):
    id: int
    code: str
    transport: Transport
    spots: list[Colour]
    vp: int


def tile_info(tile: int) -> TileInfo:
    """The catalogue entry of ``tile`` (one shared, frozen instance per tile)."""
    return _TILE_INFOS[tile]


def order_info(card: int) -> OrderInfo:
    """The catalogue entry of order ``card`` (one shared, frozen instance per card)."""
    return _ORDER_INFOS[card]


def _make_tile_info(tile: int) -> TileInfo:
    t = TILES[tile]
    return TileInfo(
        id=t.id,
        type_id=t.type_id,
        colour=t.colour,
        level=t.level,
        carts=t.carts,
        side=t.side,
        cost=t.cost,
    )


def _make_order_info(card: int) -> OrderInfo:
    o = ORDERS[card]
    return OrderInfo(id=o.id, code=o.code, transport=o.transport, spots=list(o.spots), vp=o.vp)


# A view names about fifty tiles and cards; building and validating their entries anew for
# every view took a quarter of its time, and frozen models can be shared.
_TILE_INFOS = tuple(_make_tile_info(t.id) for t in TILES)
_ORDER_INFOS = tuple(_make_order_info(o.id) for o in ORDERS)


class PitTileView(_V):
    tile: TileInfo
    carts: list[Colour | None]


class OutstandingView(_V):
    order: OrderInfo
    spots: list[list[Colour]]
    complete: bool


class PlayerView(_V):
    seat: int
    supply: int
    canteen: int
    money: int
    vp: int
    cage_level: int
    cage: list[Colour]
    storage: list[Colour]
    printed_carts: list[Colour | None]
    tiles: list[PitTileView]
    light_tiles: int
    dark_tiles: int
    empty_carts: dict[Colour, int]
    orders: list[OutstandingView]
    delivered_count: int
    delivered: list[OrderInfo] | None  # None = hidden from this viewer


class SpaceView(_V):
    id: SpaceId
    group: str
    value: int
    occupant: int | None
    workers: int
    workers_needed: int
    tile: TileInfo | None = None
    order: OrderInfo | None = None


class DrawView(_V):
    kind: Literal["tile", "order"]
    count: int
    kept_chosen: bool
    kept: TileInfo | OrderInfo | None
    end: Literal["top", "bottom"] | None
    returned_count: int
    # Only for the acting seat (§10):
    drawn: list[TileInfo | OrderInfo] | None = None
    returned: list[int] | None = None


class MiningView(_V):
    space: SpaceId
    steps_left: int
    two_for_one_order: int | None
    two_for_one_colour: Colour | None
    two_for_one_cubes: list[Colour]


class ShortageView(_V):
    tile: TileInfo
    carts_waiting: int


class FinalView(_V):
    money_vp: int
    money_left: int
    coal_vp: int
    order_penalty: int
    imbalance_penalty: int
    total: int


class GluckaufView(_V):
    game: Literal["gluckauf"] = "gluckauf"
    viewer: int | None
    n_players: int
    phase: Phase
    shift: int
    scored_categories: list[int]
    starting_player: int
    active: int | None
    to_act: list[int]
    delivered_visible: bool
    spaces: list[SpaceView]  # the open spaces, in the row order of table 3.5
    locked_spaces: list[SpaceId]  # covered by lock tiles at this player count (§3.5)
    bank: list[int]
    stack_size: int
    deck_size: int
    coal_supply: dict[Colour, int]
    draft_display: list[OrderInfo]
    players: list[PlayerView]
    draw: DrawView | None
    mining: MiningView | None
    shortage: ShortageView | None
    final: list[FinalView] | None
    tiebreak: str


# A view is made of about seventy models, all from values the state already holds valid: they
# are made without validation (see trusted.py), which cost most of a view's time, and a space,
# a pit's tile or an order that looks the same as in an earlier view is that earlier view's
# frozen model (as the catalogue entries are shared); nobody changes a view in place.
_PIT_TILE_VIEW = maker(PitTileView)
_OUTSTANDING_VIEW = maker(OutstandingView)
_PLAYER_VIEW = maker(PlayerView)
_DRAW_VIEW = maker(DrawView)
_MINING_VIEW = maker(MiningView)
_SHORTAGE_VIEW = maker(ShortageView)
_FINAL_VIEW = maker(FinalView)
_GLUCKAUF_VIEW = maker(GluckaufView)
_SPACE_VIEWS: dict[tuple[Any, ...], SpaceView] = {}
_SPACE_VIEW = maker(SpaceView)
_LOCKED_SPACES: dict[int, tuple[SpaceId, ...]] = {
    n: tuple(sp.id for sp in SPACES if not sp.open_for(n)) for n in (2, 3, 4)
}
_SCORED_CATEGORIES: dict[int, tuple[int, ...]] = {
    shift: tuple(c.number for c in categories_for_shift(shift)) for shift in (1, 2, 3)
}
_TILE_IS_LIGHT: tuple[bool, ...] = tuple(t.side == "light" for t in TILES)


def _space_view(
    sp: Space, occupant: int | None, workers: int, needed: int, tile: int | None, card: int | None
) -> SpaceView:
    key = (sp.id, occupant, workers, needed, tile, card)
    made = _SPACE_VIEWS.get(key)
    if made is None:
        made = _SPACE_VIEW(
            id=sp.id,
            group=sp.group,
            value=sp.value,
            occupant=occupant,
            workers=workers,
            workers_needed=needed,
            tile=tile_info(tile) if tile is not None else None,
            order=order_info(card) if card is not None else None,
        )
        if len(_SPACE_VIEWS) < 100_000:  # spaces x occupants x workers x tiles or cards
            _SPACE_VIEWS[key] = made
    return made


_PIT_TILE_VIEWS: dict[tuple[Any, ...], PitTileView] = {}
_OUTSTANDING_VIEWS: dict[tuple[Any, ...], OutstandingView] = {}


def _pit_tile_view(tile: int, carts: list[Colour | None]) -> PitTileView:
    """The frozen view of a pit's tile, shared by every view that shows it the same."""
    key = (tile, *carts)
    made = _PIT_TILE_VIEWS.get(key)
    if made is None:
        made = _PIT_TILE_VIEW(tile=_TILE_INFOS[tile], carts=list(carts))
        if len(_PIT_TILE_VIEWS) < 10_000:  # 48 tiles x their carts' contents
            _PIT_TILE_VIEWS[key] = made
    return made


def _outstanding_view(card: int, spots: list[list[Colour]]) -> OutstandingView:
    """The frozen view of an outstanding order, shared by every view that shows it the same."""
    key = (card, *map(tuple, spots))
    made = _OUTSTANDING_VIEWS.get(key)
    if made is None:
        made = _OUTSTANDING_VIEW(
            order=_ORDER_INFOS[card], spots=[list(x) for x in spots], complete=all(spots)
        )
        if len(_OUTSTANDING_VIEWS) < 100_000:  # 44 cards x the cubes on their spots
            _OUTSTANDING_VIEWS[key] = made
    return made


def view(state: GluckaufState, seat: Seat | None) -> GluckaufView:
    """Return what ``seat`` (None = spectator) may see, per §10."""
    over = state.phase == "over"
    players: list[PlayerView] = []
    for i, p in enumerate(state.players):
        light = sum(1 for t in p.tiles if _TILE_IS_LIGHT[t.tile])
        show_delivered = state.options.delivered_visible or seat == i or over
        players.append(
            _PLAYER_VIEW(
                seat=i,
                supply=p.supply,
                canteen=p.canteen,
                money=p.money,
                vp=p.vp,
                cage_level=p.cage_level,
                cage=list(p.cage),
                storage=list(p.storage),
                printed_carts=list(p.printed),
                tiles=[_pit_tile_view(t.tile, t.carts) for t in p.tiles],
                light_tiles=light,
                dark_tiles=len(p.tiles) - light,
                empty_carts=empty_carts_by_colour(p),
                orders=[_outstanding_view(o.card, o.spots) for o in p.orders],
                delivered_count=len(p.delivered),
                delivered=[_ORDER_INFOS[c] for c in p.delivered] if show_delivered else None,
            )
        )
    occupants, factory, order_spaces = state.occupants, state.factory, state.order_spaces
    spaces: list[SpaceView] = []
    for sp in open_spaces(state.n_players):
        sid = sp.id
        occ = occupants.get(sid)
        if sid == "BANK":
            spaces.append(_space_view(sp, None, sum(state.bank), 1, None, None))
        elif occ is None:
            spaces.append(_space_view(sp, None, 0, 1, factory.get(sid), order_spaces.get(sid)))
        else:
            spaces.append(
                _space_view(
                    sp, occ.seat, occ.count, occ.count + 1, factory.get(sid), order_spaces.get(sid)
                )
            )
    draw_view = None
    d = state.draw
    if d is not None:
        acting = seat == state.active
        kept: TileInfo | OrderInfo | None = None
        if d.kept is not None:
            kept = tile_info(d.kept) if d.kind == "tile" else order_info(d.kept)
        drawn: list[TileInfo | OrderInfo] | None = None
        if acting:
            drawn = [tile_info(i) if d.kind == "tile" else order_info(i) for i in d.drawn]
        draw_view = _DRAW_VIEW(
            kind=d.kind,
            count=len(d.drawn),
            kept_chosen=d.kept_chosen,
            kept=kept,
            end=d.end,
            returned_count=len(d.placed),
            drawn=drawn,
            returned=list(d.placed) if acting else None,
        )
    m = state.mining
    mining_view = None
    if m is not None:
        mining_view = _MINING_VIEW(
            space=m.space,
            steps_left=m.budget,
            two_for_one_order=m.tfo_order,
            two_for_one_colour=m.tfo_colour,
            two_for_one_cubes=list(m.tfo_cubes),
        )
    shortage_view = None
    if state.shortage is not None:
        owned = state.players[state.active].tiles[state.shortage.tile_index]
        shortage_view = _SHORTAGE_VIEW(
            tile=tile_info(owned.tile), carts_waiting=len(state.shortage.carts)
        )
    final = [_FINAL_VIEW(**f.model_dump()) for f in state.final] if state.final else None
    return _GLUCKAUF_VIEW(
        viewer=seat,
        n_players=state.n_players,
        phase=state.phase,
        shift=state.shift,
        scored_categories=list(_SCORED_CATEGORIES[state.shift]),
        starting_player=state.start_player,
        active=None if over else state.active,
        to_act=[] if over else [state.active],
        delivered_visible=state.options.delivered_visible,
        spaces=spaces,
        locked_spaces=list(_LOCKED_SPACES[state.n_players]),
        bank=list(state.bank),
        stack_size=len(state.stack),
        deck_size=len(state.deck),
        coal_supply=dict(state.coal),
        draft_display=[_ORDER_INFOS[c] for c in state.display],
        players=players,
        draw=draw_view,
        mining=mining_view,
        shortage=shortage_view,
        final=final,
        tiebreak=state.tiebreak,
    )


# --------------------------------------------------------------------------- the wire form
#
# What a server sends every seat after every action: view(state, seat).model_dump(mode="json"),
# built here as that JSON data straight from the state (test_view_json holds the two to each
# other at every step). Building seventy models and dumping them took most of a view's time.
# The records a view names again and again (catalogue entries, spaces, a pit's tiles, the
# orders) are shared JSON dicts, made once, as the frozen models above are: nobody changes a
# view's data in place.

_TILE_JSON: tuple[dict[str, Any], ...] = tuple(t.model_dump(mode="json") for t in _TILE_INFOS)
_ORDER_JSON: tuple[dict[str, Any], ...] = tuple(o.model_dump(mode="json") for o in _ORDER_INFOS)
_LOCKED_JSON: dict[int, list[str]] = {n: list(ids) for n, ids in _LOCKED_SPACES.items()}
_SCORED_JSON: dict[int, list[int]] = {shift: list(c) for shift, c in _SCORED_CATEGORIES.items()}
_SPACE_JSONS: dict[tuple[Any, ...], dict[str, Any]] = {}
_PIT_TILE_JSONS: dict[tuple[Any, ...], dict[str, Any]] = {}
_OUTSTANDING_JSONS: dict[tuple[Any, ...], dict[str, Any]] = {}
_TILE_COLOUR: tuple[Colour, ...] = tuple(t.colour for t in TILES)
_PRINTED_COLOURS: tuple[tuple[int, Colour], ...] = tuple((LEVEL_OF[c] - 1, c) for c in COLOURS)


def _space_json(
    sp: Space, occupant: int | None, workers: int, needed: int, tile: int | None, card: int | None
) -> dict[str, Any]:
    key = (sp.id, occupant, workers, needed, tile, card)
    made = _SPACE_JSONS.get(key)
    if made is None:
        made = {
            "id": sp.id,
            "group": sp.group,
            "value": sp.value,
            "occupant": occupant,
            "workers": workers,
            "workers_needed": needed,
            "tile": _TILE_JSON[tile] if tile is not None else None,
            "order": _ORDER_JSON[card] if card is not None else None,
        }
        if len(_SPACE_JSONS) < 100_000:  # as _SPACE_VIEWS
            _SPACE_JSONS[key] = made
    return made


def _pit_tile_json(tile: int, carts: list[Colour | None]) -> dict[str, Any]:
    key = (tile, *carts)
    made = _PIT_TILE_JSONS.get(key)
    if made is None:
        made = {"tile": _TILE_JSON[tile], "carts": list(carts)}
        if len(_PIT_TILE_JSONS) < 10_000:  # as _PIT_TILE_VIEWS
            _PIT_TILE_JSONS[key] = made
    return made


def _outstanding_json(card: int, spots: list[list[Colour]]) -> dict[str, Any]:
    key = (card, *map(tuple, spots))
    made = _OUTSTANDING_JSONS.get(key)
    if made is None:
        made = {
            "order": _ORDER_JSON[card],
            "spots": [list(x) for x in spots],
            "complete": all(spots),
        }
        if len(_OUTSTANDING_JSONS) < 100_000:  # as _OUTSTANDING_VIEWS
            _OUTSTANDING_JSONS[key] = made
    return made


def view_json(state: GluckaufState, seat: Seat | None, parts: dict[Any, Any]) -> dict[str, Any]:
    """:func:`view` as JSON data, the same as its ``model_dump(mode="json")``. The views of
    one state share, through ``parts``, all but what only some seats see: the delivered piles
    and a pending draw-5's items."""
    common = parts.get("common")
    if common is None:
        common = parts["common"] = _common(state)
    head, tail, players, delivered, draw = common
    if players is None:  # the delivered piles are hidden from all but their owners
        players = [
            {**base, "delivered": shown if seat == i else None}
            for i, (base, shown) in enumerate(delivered)
        ]
    return {
        "game": "gluckauf",
        "viewer": seat,
        **head,
        "players": players,
        "draw": draw if draw is None or seat != state.active else _acting_draw(state, draw),
        **tail,
    }


def _acting_draw(state: GluckaufState, draw: dict[str, Any]) -> dict[str, Any]:
    """The pending draw-5 as the acting seat sees it: its items and the return order so far."""
    d = state.draw
    if d is None:
        return draw
    catalogue = _TILE_JSON if d.kind == "tile" else _ORDER_JSON
    return {**draw, "drawn": [catalogue[i] for i in d.drawn], "returned": list(d.placed)}


def _common(
    state: GluckaufState,
) -> tuple[
    dict[str, Any],
    dict[str, Any],
    list[dict[str, Any]] | None,
    list[tuple[dict[str, Any], list[dict[str, Any]]]],
    dict[str, Any] | None,
]:
    """What every view of ``state`` holds alike: the fields before the players and those after
    the draw-5, each player but for the delivered pile (with that pile, shown), the players
    whole when every seat sees every pile, and the draw-5 as all but the acting seat see it."""
    over = state.phase == "over"
    n = state.n_players
    delivered: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    for i, p in enumerate(state.players):
        printed = p.printed
        empty = {c: 1 if printed[level] is None else 0 for level, c in _PRINTED_COLOURS}
        light = 0
        tiles = []
        for t in p.tiles:
            tile, carts = t.tile, t.carts
            if _TILE_IS_LIGHT[tile]:
                light += 1
            empty[_TILE_COLOUR[tile]] += carts.count(None)
            tiles.append(_pit_tile_json(tile, carts))
        base = {
            "seat": i,
            "supply": p.supply,
            "canteen": p.canteen,
            "money": p.money,
            "vp": p.vp,
            "cage_level": p.cage_level,
            "cage": list(p.cage),
            "storage": list(p.storage),
            "printed_carts": list(printed),
            "tiles": tiles,
            "light_tiles": light,
            "dark_tiles": len(tiles) - light,
            "empty_carts": empty,
            "orders": [_outstanding_json(o.card, o.spots) for o in p.orders],
            "delivered_count": len(p.delivered),
        }
        delivered.append((base, [_ORDER_JSON[c] for c in p.delivered]))
    players = None
    if state.options.delivered_visible or over:
        players = [{**base, "delivered": shown} for base, shown in delivered]
    occupants, factory, order_spaces = state.occupants, state.factory, state.order_spaces
    spaces = []
    known = _SPACE_JSONS
    for sp in open_spaces(n):
        sid = sp.id
        occ = occupants.get(sid)
        if sid == "BANK":
            key: tuple[Any, ...] = (sid, None, sum(state.bank), 1, None, None)
        elif occ is None:
            key = (sid, None, 0, 1, factory.get(sid), order_spaces.get(sid))
        else:
            count = occ.count
            key = (sid, occ.seat, count, count + 1, factory.get(sid), order_spaces.get(sid))
        made = known.get(key)  # _space_json's look-up, written out for 27 spaces
        spaces.append(made if made is not None else _space_json(sp, *key[1:]))
    head = {
        "n_players": n,
        "phase": state.phase,
        "shift": state.shift,
        "scored_categories": _SCORED_JSON[state.shift],
        "starting_player": state.start_player,
        "active": None if over else state.active,
        "to_act": [] if over else [state.active],
        "delivered_visible": state.options.delivered_visible,
        "spaces": spaces,
        "locked_spaces": _LOCKED_JSON[n],
        "bank": list(state.bank),
        "stack_size": len(state.stack),
        "deck_size": len(state.deck),
        "coal_supply": dict(state.coal),
        "draft_display": [_ORDER_JSON[c] for c in state.display],
    }
    draw = None
    d = state.draw
    if d is not None:
        kept = None
        if d.kept is not None:
            kept = _TILE_JSON[d.kept] if d.kind == "tile" else _ORDER_JSON[d.kept]
        draw = {
            "kind": d.kind,
            "count": len(d.drawn),
            "kept_chosen": d.kept_chosen,
            "kept": kept,
            "end": d.end,
            "returned_count": len(d.placed),
            "drawn": None,
            "returned": None,
        }
    m = state.mining
    mining = None
    if m is not None:
        mining = {
            "space": m.space,
            "steps_left": m.budget,
            "two_for_one_order": m.tfo_order,
            "two_for_one_colour": m.tfo_colour,
            "two_for_one_cubes": list(m.tfo_cubes),
        }
    shortage = None
    if state.shortage is not None:
        owned = state.players[state.active].tiles[state.shortage.tile_index]
        shortage = {"tile": _TILE_JSON[owned.tile], "carts_waiting": len(state.shortage.carts)}
    final = None
    if state.final:
        final = [
            {
                "money_vp": f.money_vp,
                "money_left": f.money_left,
                "coal_vp": f.coal_vp,
                "order_penalty": f.order_penalty,
                "imbalance_penalty": f.imbalance_penalty,
                "total": f.total,
            }
            for f in state.final
        ]
    tail = {"mining": mining, "shortage": shortage, "final": final, "tiebreak": state.tiebreak}
    return head, tail, players, delivered, draw


__all__ = ["GluckaufView", "view", "view_json"]
