"""A whole Glück Auf table consistent with what one seat sees (issue 21: the strong bot).

What a seat cannot see (§10) is only ever the order of face-down piles and cards that left
its sight: the tile stack and the order deck (sizes public, order secret), the other seats'
delivered piles (a count each, unless ``delivered_visible`` or the game is over) and, while
another seat resolves a draw-5, the items it drew but has not kept (a count, and how many of
them it has put back so far). :func:`determinize` deals exactly those places at random from
the tiles and order cards the seat has not seen, each arrangement equally likely, and copies
everything else from the view.

Three state fields are nowhere in a view and are not needed to play on: the ``turns``
counter (only counted, never read by the rules), the ``starting_player`` option (read only
by setup) and the seat that acted last once the game is over. They get fixed values; the
view of the dealt state is the given view all the same.

The view is all a bot knows: a seat that drew five items and put them back knew where they
went, but its view no longer says, so it is dealt like any other unseen pile.
"""

from __future__ import annotations

import random

from app.games.base import Rng, Seat
from app.games.trusted import maker

from .data import ORDER_SPACES, ORDERS, ORDERS_PER_PLAYER_IN_DRAFT, TILE_SPACES, TILES, Colour
from .rules import (
    DrawState,
    FinalScore,
    GluckaufOptions,
    GluckaufState,
    MiningState,
    Occupant,
    Outstanding,
    OwnedTile,
    PlayerState,
    ShortageState,
)
from .view import GluckaufView

# Made without validation from values a valid view holds (see trusted.py): validating the
# whole table took most of a determinization, which a search makes once per iteration.
_STATE = maker(GluckaufState)
_PLAYER = maker(PlayerState)
_OWNED_TILE = maker(OwnedTile)
_OUTSTANDING = maker(Outstanding)
_OCCUPANT = maker(Occupant)
_DRAW = maker(DrawState)
_MINING = maker(MiningState)
_SHORTAGE = maker(ShortageState)
_FINAL = maker(FinalScore)
_OPTIONS = maker(GluckaufOptions)

_ALL_TILES: frozenset[int] = frozenset(range(len(TILES)))
_ALL_ORDERS: frozenset[int] = frozenset(range(len(ORDERS)))
_TILE_SPACE_IDS: frozenset[str] = frozenset(TILE_SPACES)
_ORDER_SPACE_IDS: frozenset[str] = frozenset(ORDER_SPACES)


def determinize(view: GluckaufView, seat: Seat, rng: random.Random) -> GluckaufState:
    """A complete state whose ``view(state, seat)`` equals ``view`` (the view of ``seat``).

    The tiles ``seat`` has not seen are dealt, shuffled, to the other seat's pending tile
    draw-5 (its unkept items) and the stack; the unseen order cards likewise to a pending
    order draw-5, the other seats' hidden delivered piles and the deck. The state's chance
    to come is a fresh :class:`Rng` from ``rng``. Reads only ``view``, ``seat`` and ``rng``:
    the same ``rng`` state gives the same state.

    Raises ValueError if ``view`` is not the view of ``seat`` or its counts cannot be dealt
    (a view no state has).
    """
    if view.viewer != seat:
        raise ValueError(f"this view is seat {view.viewer}'s, not seat {seat}'s")
    n = view.n_players
    # What the seat sees of the tiles and cards: every other one is dealt.
    seen_tiles: set[int] = set()
    seen_orders: set[int] = {o.id for o in view.draft_display}
    factory: dict[str, int | None] = {}
    order_spaces: dict[str, int | None] = {}
    occupants: dict[str, Occupant] = {}
    for sp in view.spaces:
        sid = sp.id
        if sid in _TILE_SPACE_IDS:
            tile = sp.tile.id if sp.tile is not None else None
            factory[sid] = tile
            if tile is not None:
                seen_tiles.add(tile)
        elif sid in _ORDER_SPACE_IDS:
            card = sp.order.id if sp.order is not None else None
            order_spaces[sid] = card
            if card is not None:
                seen_orders.add(card)
        if sp.occupant is not None and sid != "BANK":
            occupants[sid] = _OCCUPANT(seat=sp.occupant, count=sp.workers)
    hidden_delivered: list[int] = []  # the seats whose delivered pile is dealt
    for pv in view.players:
        for t in pv.tiles:
            seen_tiles.add(t.tile.id)
        for o in pv.orders:
            seen_orders.add(o.order.id)
        if pv.delivered is None:
            hidden_delivered.append(pv.seat)
        else:
            seen_orders.update(o.id for o in pv.delivered)
    d = view.draw
    if d is not None and d.drawn is not None:
        (seen_tiles if d.kind == "tile" else seen_orders).update(i.id for i in d.drawn)
    unseen_tiles = sorted(_ALL_TILES - seen_tiles)
    unseen_orders = sorted(_ALL_ORDERS - seen_orders)
    rng.shuffle(unseen_tiles)
    rng.shuffle(unseen_orders)

    draw = None
    if d is not None:
        kept = d.kept.id if d.kept is not None else None
        if d.drawn is not None:  # the seat's own draw-5: all in its view
            drawn = [i.id for i in d.drawn]
            placed = list(d.returned or [])
        else:
            pool = unseen_tiles if d.kind == "tile" else unseen_orders
            hidden = d.count - (kept is not None)
            drawn = pool[:hidden]
            del pool[:hidden]
            # Those put back so far are any of the unkept ones, in any order: the first dealt.
            placed = drawn[: d.returned_count]
            if kept is not None:
                drawn.insert(rng.randrange(len(drawn) + 1), kept)
        draw = _DRAW(
            kind=d.kind,
            drawn=drawn,
            kept=kept,
            kept_chosen=d.kept_chosen,
            end=d.end,
            placed=placed,
        )

    players: list[PlayerState] = []
    for pv in view.players:
        if pv.delivered is None:
            delivered = unseen_orders[: pv.delivered_count]
            del unseen_orders[: pv.delivered_count]
        else:
            delivered = [o.id for o in pv.delivered]
        players.append(
            _PLAYER(
                supply=pv.supply,
                canteen=pv.canteen,
                money=pv.money,
                vp=pv.vp,
                cage_level=pv.cage_level,
                cage=list(pv.cage),
                storage=list(pv.storage),
                printed=list(pv.printed_carts),
                tiles=[_OWNED_TILE(tile=t.tile.id, carts=list(t.carts)) for t in pv.tiles],
                orders=[
                    _OUTSTANDING(card=o.order.id, spots=[list(cubes) for cubes in o.spots])
                    for o in pv.orders
                ],
                delivered=delivered,
            )
        )
    if len(unseen_tiles) != view.stack_size or len(unseen_orders) != view.deck_size:
        raise ValueError(
            f"the view's piles ({view.stack_size} tiles, {view.deck_size} cards) are not "
            f"what it leaves unseen ({len(unseen_tiles)} tiles, {len(unseen_orders)} cards)"
        )

    shortage = None
    if view.shortage is not None and view.active is not None:
        # The shortage is always on the tile just bought, the last in the pit; its waiting
        # carts are its empty ones, first first (§7.1 step 4: each resolved cart got a cube).
        owned = players[view.active].tiles
        carts = [i for i, c in enumerate(owned[-1].carts) if c is None]
        shortage = _SHORTAGE(
            tile_index=len(owned) - 1,
            carts=carts[len(carts) - view.shortage.carts_waiting :],
            then="draw" if view.draw is not None else "end_turn",
        )
    m = view.mining
    mining = None
    if m is not None:
        mining = _MINING(
            space=m.space,
            budget=m.steps_left,
            tfo_order=m.two_for_one_order,
            tfo_colour=m.two_for_one_colour,
            tfo_cubes=list(m.two_for_one_cubes),
        )
    final = None
    if view.final is not None:
        final = [
            _FINAL(
                money_vp=f.money_vp,
                money_left=f.money_left,
                coal_vp=f.coal_vp,
                order_penalty=f.order_penalty,
                imbalance_penalty=f.imbalance_penalty,
                total=f.total,
            )
            for f in view.final
        ]
    in_draft = view.phase == "draft"
    coal: dict[Colour, int] = dict(view.coal_supply)
    return _STATE(
        n_players=n,
        options=_OPTIONS(starting_player=None, delivered_visible=view.delivered_visible),
        rng=Rng.from_seed(rng.getrandbits(64)),
        phase=view.phase,
        shift=view.shift,
        start_player=view.starting_player,
        # Once the game is over no view names the seat that acted last: any seat will do.
        active=view.active if view.active is not None else view.starting_player,
        stack=unseen_tiles,
        deck=unseen_orders,
        factory=factory,
        order_spaces=order_spaces,
        occupants=occupants,
        bank=list(view.bank),
        coal=coal,
        display=[o.id for o in view.draft_display],
        # Every outstanding order of the draft was drafted (§4 step 8).
        draft_picks=(
            sum(len(p.orders) for p in players) if in_draft else ORDERS_PER_PLAYER_IN_DRAFT * n
        ),
        players=players,
        draw=draw,
        shortage=shortage,
        mining=mining,
        final=final,
        tiebreak=view.tiebreak,
        turns=0,
    )


__all__ = ["determinize"]
