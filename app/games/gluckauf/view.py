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

from .data import (
    ORDERS,
    SPACES,
    TILES,
    Colour,
    Side,
    SpaceId,
    Transport,
    categories_for_shift,
    open_spaces,
)
from .rules import GluckaufState, Phase, empty_carts_by_colour, workers_needed


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


def view(state: GluckaufState, seat: Seat | None) -> GluckaufView:
    """Return what ``seat`` (None = spectator) may see, per §10.

    The players and spaces are given as plain data, which the one validation of the
    :class:`GluckaufView` turns into their models: about seventy models each validated on its
    own took most of the time of a view.
    """
    players: list[dict[str, Any]] = []
    for i, p in enumerate(state.players):
        light = sum(1 for t in p.tiles if TILES[t.tile].side == "light")
        show_delivered = state.options.delivered_visible or seat == i or state.phase == "over"
        players.append(
            dict(
                seat=i,
                supply=p.supply,
                canteen=p.canteen,
                money=p.money,
                vp=p.vp,
                cage_level=p.cage_level,
                cage=list(p.cage),
                storage=list(p.storage),
                printed_carts=list(p.printed),
                tiles=[dict(tile=tile_info(t.tile), carts=list(t.carts)) for t in p.tiles],
                light_tiles=light,
                dark_tiles=len(p.tiles) - light,
                empty_carts=empty_carts_by_colour(p),
                orders=[
                    dict(
                        order=order_info(o.card),
                        spots=[list(x) for x in o.spots],
                        complete=all(o.spots),
                    )
                    for o in p.orders
                ],
                delivered_count=len(p.delivered),
                delivered=[order_info(c) for c in p.delivered] if show_delivered else None,
            )
        )
    spaces: list[dict[str, Any]] = []
    for sp in open_spaces(state.n_players):
        occ = state.occupants.get(sp.id)
        tile = state.factory.get(sp.id)
        card = state.order_spaces.get(sp.id)
        spaces.append(
            dict(
                id=sp.id,
                group=sp.group,
                value=sp.value,
                occupant=None if occ is None or sp.id == "BANK" else occ.seat,
                workers=sum(state.bank) if sp.id == "BANK" else (occ.count if occ else 0),
                workers_needed=workers_needed(state, sp.id),
                tile=tile_info(tile) if tile is not None else None,
                order=order_info(card) if card is not None else None,
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
        draw_view = DrawView(
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
        mining_view = MiningView(
            space=m.space,
            steps_left=m.budget,
            two_for_one_order=m.tfo_order,
            two_for_one_colour=m.tfo_colour,
            two_for_one_cubes=list(m.tfo_cubes),
        )
    shortage_view = None
    if state.shortage is not None:
        owned = state.players[state.active].tiles[state.shortage.tile_index]
        shortage_view = ShortageView(
            tile=tile_info(owned.tile), carts_waiting=len(state.shortage.carts)
        )
    over = state.phase == "over"
    final = [FinalView(**f.model_dump()) for f in state.final] if state.final else None
    return GluckaufView.model_validate(
        dict(
            viewer=seat,
            n_players=state.n_players,
            phase=state.phase,
            shift=state.shift,
            scored_categories=[c.number for c in categories_for_shift(state.shift)],
            starting_player=state.start_player,
            active=None if over else state.active,
            to_act=[] if over else [state.active],
            delivered_visible=state.options.delivered_visible,
            spaces=spaces,
            locked_spaces=[sp.id for sp in SPACES if not sp.open_for(state.n_players)],
            bank=list(state.bank),
            stack_size=len(state.stack),
            deck_size=len(state.deck),
            coal_supply=dict(state.coal),
            draft_display=[order_info(c) for c in state.display],
            players=players,
            draw=draw_view,
            mining=mining_view,
            shortage=shortage_view,
            final=final,
            tiebreak=state.tiebreak,
        )
    )


__all__ = ["GluckaufView", "view"]
